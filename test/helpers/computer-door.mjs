// Shared by test/runtime/computer-tool.test.ts and its child process (test/runtime/children/computer-resume.mjs):
// the policy of the computer door and a real Computer that acts on a "screen" kept in a temp
// directory: every action is appended to a log file (with the pid of the process that ran it) and
// typed text to screen.txt; a screenshot is a real PNG of the screen's size.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';

const matched = (decision, rule) => ({ decision, rule, reason: `rule[${rule}]` });
const READ_ONLY = new Set(['screenshot', 'move', 'scroll', 'wait', 'click']);

/**
 * host.computer, on what protectComputerTool presents (`{ action, actions, text?, keys? }`):
 * typing text that holds "DROP" deny (rule 1); a batch of only screenshot/move/scroll/wait/click
 * allow (rule 0); anything else (typing, keys, drags) approve (rule 2). No effect key.
 */
export function computerPolicy() {
  return {
    hash: 'c'.repeat(64),
    mode: 'enforce',
    environment: 'test',
    actions: {
      'host.computer': {
        id: 'host.computer',
        decide(args) {
          if (!args || typeof args !== 'object' || typeof args.action !== 'string') return matched('deny', 3);
          if (typeof args.text === 'string' && args.text.includes('DROP')) return matched('deny', 1);
          if (args.action.split('\n').every((t) => READ_ONLY.has(t))) return matched('allow', 0);
          return matched('approve', 2);
        },
        controls: [],
        approvalsRequired: 1,
        maxAttempts: 1,
      },
    },
    tools: {},
  };
}

/** A PNG (8-bit grey) of width x height, every pixel `shade`: what a screenshot returns, base64. */
function png(width, height, shade) {
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = Buffer.alloc((width + 1) * height, shade);
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0; // filter: none
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]).toString('base64');
}

/** A real Computer on `root`: each action logged (type, arguments, pid); `type` writes to screen.txt. */
export function recordingComputer(root, logFile) {
  const log = (type, args) => appendFileSync(logFile, `${JSON.stringify({ type, ...args, pid: process.pid })}\n`);
  const screen = path.join(root, 'screen.txt');
  return {
    environment: 'browser',
    dimensions: [64, 48],
    async screenshot() {
      log('screenshot', {});
      const typed = existsSync(screen) ? readFileSync(screen, 'utf8').length : 0;
      return png(64, 48, Math.min(255, typed * 8));
    },
    async click(x, y, button) {
      log('click', { x, y, button });
    },
    async doubleClick(x, y) {
      log('double_click', { x, y });
    },
    async scroll(x, y, scrollX, scrollY) {
      log('scroll', { x, y, scrollX, scrollY });
    },
    async type(text) {
      log('type', { text });
      appendFileSync(screen, text);
    },
    async wait() {
      log('wait', {});
    },
    async move(x, y) {
      log('move', { x, y });
    },
    async keypress(keys) {
      log('keypress', { keys });
    },
    async drag(p) {
      log('drag', { path: p });
    },
  };
}

export const computerCall = (callId, actions) =>
  actions.length === 1 && !Array.isArray(actions[0])
    ? { type: 'computer_call', callId, status: 'completed', action: actions[0] }
    : { type: 'computer_call', callId, status: 'completed', actions };
