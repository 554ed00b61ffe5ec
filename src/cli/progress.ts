import type { CliContext } from './context.js';

export interface ProgressLine {
  update: (done: number, total: number) => void;
  /** Erases the line if anything was shown. */
  clear: () => void;
}

/**
 * A one-line `<verb> done/total files` counter on stderr, on a terminal only (undefined when piped),
 * shown only for runs of more than `threshold` files and redrawn at most every 100 ms.
 */
export function progressLine(ctx: Pick<CliContext, 'isTTY' | 'stderr'>, verb: string, threshold = 300): ProgressLine | undefined {
  if (!ctx.isTTY) return undefined;
  let last = 0;
  let shown = false;
  return {
    update: (done, total) => {
      if (total <= threshold) return;
      const now = Date.now();
      if (now - last < 100 && done < total) return;
      last = now;
      shown = true;
      ctx.stderr(`\r${verb} ${done}/${total} files`);
    },
    clear: () => {
      if (shown) ctx.stderr('\r\x1b[K');
    },
  };
}
