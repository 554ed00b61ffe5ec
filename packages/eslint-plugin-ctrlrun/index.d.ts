import type { ESLint, Linter, Rule } from 'eslint';

/** check's rules (`ctrlrun/<rule-id>`) and the `recommended` flat config. */
declare const plugin: ESLint.Plugin & {
  rules: Record<string, Rule.RuleModule>;
  configs: { recommended: Linter.Config };
};
export default plugin;
