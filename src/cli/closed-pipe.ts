/**
 * A reader that stops early (`ctrlrun-gen check | head -5`) closes the pipe under the CLI: what is
 * left to print has nowhere to go, which is no failure of the command. Without a listener, Node
 * throws the stream's EPIPE as an uncaught error (a stack trace, exit 1) in the middle of whatever
 * the command was doing, files half-written included. With this one the command runs to its end,
 * its further output to that stream is dropped, and it exits with its own code.
 */
export function dropOutputToClosedPipe(stream: NodeJS.EventEmitter): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
    // any other failure of the terminal or file behind it stays what it was: uncaught
    throw error;
  });
}
