/**
 * `eslint-plugin-ctrlrun`: check's rules in ESLint (flat config).
 *
 * ```js
 * import ctrlrun from 'eslint-plugin-ctrlrun';
 * export default [ctrlrun.configs.recommended];
 * ```
 */
import { createPlugin } from './plugin.js';

export { createPlugin, eslintMessage, elsewhereMessage, NAMESPACE, type CtrlrunPlugin, type PluginOptions } from './plugin.js';
export { SingleFileSession, DiskSessions, type LintSession, type FileLint } from './session.js';

const plugin = createPlugin();
export default plugin;
