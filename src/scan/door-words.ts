/**
 * The words a write that breaks a door names (file/door-writes.ts): a file naming none writes no
 * door. Tested on a file's bytes read as latin1 (the words are ASCII) where the prefilter reads them
 * (read.ts), and by the door-writer search (imported-door-writes.ts). Its own module: the reading
 * thread's bundle takes it without the scanner.
 */
export const DOOR_WORDS = [
  'shell',
  'editor',
  'computer',
  'toolInputGuardrails',
  'toolOutputGuardrails',
  'errorFunction',
  'providerData',
  'getAllTools',
  'getMcpTools',
  'getEnabledHandoffs',
] as const;

/** Any of the door words: one pass a file, where a test a word was ten. */
export const DOOR_WORD = new RegExp(DOOR_WORDS.join('|'));
