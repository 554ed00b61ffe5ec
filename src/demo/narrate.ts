import pc from 'picocolors';

/** Plain narration: a numbered step title, then indented lines. */
export function narrator(out: (text: string) => void, color: boolean) {
  const c = pc.createColors(color);
  let step = 0;
  return {
    step(title: string) {
      step += 1;
      out(`\n${c.bold(`${step}. ${title}`)}\n`);
    },
    say(text: string) {
      out(`   ${text}\n`);
    },
    ok(text: string) {
      out(`   ${c.green('✓')} ${text}\n`);
    },
    block(text: string) {
      const body = text.replace(/\s+$/, '');
      if (body)
        out(
          `${body
            .split('\n')
            .map((l) => `   │ ${l}`)
            .join('\n')}\n`,
        );
    },
  };
}
