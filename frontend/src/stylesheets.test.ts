/// <reference types="node" />
// CSS cannot import spec.gen.ts, so this reads every stylesheet under src
// with postcss and checks its media queries against the spec's breakpoints,
// and that every animation and transition is turned off for visitors who
// prefer reduced motion.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import postcss, {
  type AtRule,
  type ChildNode,
  type Declaration,
  type Node as CssNode,
  type Rule,
} from 'postcss';
import { describe, expect, it } from 'vitest';
import { MenuCollapseBelow, NarrowLayoutMaxWidth, WideLayoutMinWidth } from './gen/spec.gen';

// ---- Reading the stylesheets ------------------------------------------------

const srcDir = dirname(fileURLToPath(import.meta.url));

/** Every stylesheet under src, by its path from src. */
const sheets = readdirSync(srcDir, { recursive: true, encoding: 'utf8' })
  .filter((path) => path.endsWith('.css'))
  .sort()
  .map((path) => ({ path, css: readFileSync(join(srcDir, path), 'utf8') }));

/** Every stylesheet, parsed by postcss (comments and strings never end a rule). */
const parsed = sheets.map(({ path, css }) => ({ path, root: postcss.parse(css, { from: path }) }));

/** The line a node starts on. */
const lineOf = (node: ChildNode) => node.source?.start?.line ?? 0;

/** Where a node starts in its file, to tell which of two rules comes later. */
const offsetOf = (node: ChildNode) => node.source?.start?.offset ?? 0;

/** An at-rule as written before its block: "@media (min-width: 650px)". */
const preludeOf = (rule: AtRule) => `@${rule.name} ${rule.params}`;

/** The preludes of the at-rules around node, outermost first. */
function around(node: ChildNode): string[] {
  const out: string[] = [];
  for (let p: CssNode | undefined = node.parent; p && p.type !== 'root'; p = p.parent) {
    if (p.type === 'atrule') out.unshift(preludeOf(p as AtRule));
  }
  return out;
}

// ---- Media queries ------------------------------------------------------------

/** One condition on the viewport width, as `width op px`. */
interface WidthCondition {
  op: '<' | '<=' | '>' | '>=' | '=' | '!=';
  px: number;
  /** The feature as written, e.g. "(max-width: 649px)". */
  source: string;
}

type Token =
  | { type: 'ident'; value: string }
  | { type: 'number'; value: number; unit: string }
  | { type: 'delim'; value: string };

function tokenize(prelude: string): Token[] {
  const tokens: Token[] = [];
  let rest = prelude;
  while ((rest = rest.trimStart()) !== '') {
    let m: RegExpMatchArray | null;
    if ((m = rest.match(/^(<=|>=|[<>=(),:/])/))) {
      tokens.push({ type: 'delim', value: m[1] });
    } else if ((m = rest.match(/^([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)([a-z%]*)/i))) {
      tokens.push({ type: 'number', value: Number(m[1]), unit: m[2].toLowerCase() });
    } else if ((m = rest.match(/^-?[a-z_][\w-]*/i))) {
      tokens.push({ type: 'ident', value: m[0].toLowerCase() });
    } else {
      throw new Error(`cannot read "${rest}"`);
    }
    rest = rest.slice(m[0].length);
  }
  return tokens;
}

const widthFeature = /^(min-|max-)?(device-)?width$/;
const flipped = { '<': '>', '<=': '>=', '>': '<', '>=': '<=', '=': '=' } as const;
const negated = { '<': '>=', '<=': '>', '>': '<=', '>=': '<', '=': '!=', '!=': '=' } as const;

/** A length in CSS px; em and rem in a media query are the initial 16px. */
function px(token: Token | undefined, feature: string): number {
  if (token?.type !== 'number') throw new Error(`${feature}: no length`);
  if (token.unit === 'px' || (token.unit === '' && token.value === 0)) return token.value;
  if (token.unit === 'em' || token.unit === 'rem') return token.value * 16;
  throw new Error(`${feature}: unit "${token.unit}" is not px, em or rem`);
}

/**
 * Returns every width condition of a media query list (the prelude after
 * @media), with `not` applied. Throws on anything it cannot read, so a width
 * condition cannot slip past in a form this does not know.
 */
function widthConditions(prelude: string): WidthCondition[] {
  const tokens = tokenize(prelude);
  const found: WidthCondition[] = [];
  let i = 0;
  const peek = (k = 0) => tokens[i + k];
  const isIdent = (t: Token | undefined, value?: string) =>
    t?.type === 'ident' && (value === undefined || t.value === value);
  const isDelim = (t: Token | undefined, value: string) => t?.type === 'delim' && t.value === value;
  const expect = (value: string) => {
    if (!isDelim(peek(), value)) throw new Error(`expected "${value}" at token ${i}`);
    i++;
  };

  const feature = (negate: boolean) => {
    const start = i;
    while (i < tokens.length && !isDelim(peek(), ')')) {
      if (isDelim(peek(), '(')) throw new Error('a function or nesting inside a feature');
      i++;
    }
    const parts = tokens.slice(start, i);
    const source = `(${parts.map((t) => ('unit' in t ? `${t.value}${t.unit}` : t.value)).join(' ')})`;
    const add = (name: string, op: WidthCondition['op'], value: Token | undefined) => {
      if (!widthFeature.test(name)) return;
      if (name.includes('device-')) throw new Error(`${source}: device-width, not width`);
      found.push({ op: negate ? negated[op] : op, px: px(value, source), source });
    };
    const first = parts[0];
    // (name) or (name: value)
    if (parts.length === 1 && first.type === 'ident') {
      if (widthFeature.test(first.value)) throw new Error(`${source}: a width with no value`);
      return;
    }
    if (first?.type === 'ident' && isDelim(parts[1], ':')) {
      if (parts.length < 3) throw new Error(`${source}: no value`);
      const name = first.value;
      if (!widthFeature.test(name)) return;
      if (parts.length !== 3) throw new Error(`${source}: not one length`);
      const op = name.startsWith('min-') ? '>=' : name.startsWith('max-') ? '<=' : '=';
      add(name, op, parts[2]);
      return;
    }
    // Range syntax: name op value, value op name, value op name op value.
    const ops: Array<WidthCondition['op']> = [];
    const operands: Token[][] = [[]];
    for (const t of parts) {
      if (t.type === 'delim' && ['<', '<=', '>', '>=', '='].includes(t.value)) {
        ops.push(t.value as WidthCondition['op']);
        operands.push([]);
      } else {
        operands[operands.length - 1].push(t);
      }
    }
    if (operands.some((o) => o.length === 0) || ops.length === 0 || ops.length > 2) {
      throw new Error(`${source}: not a media feature`);
    }
    const nameAt = operands.findIndex((o) => o.length === 1 && o[0].type === 'ident');
    if (nameAt < 0) throw new Error(`${source}: no feature name`);
    const name = (operands[nameAt][0] as { value: string }).value;
    if (/^(min|max)-/.test(name) && widthFeature.test(name)) {
      throw new Error(`${source}: ${name} in range syntax`);
    }
    if (!widthFeature.test(name)) return;
    if (operands.some((o, k) => k !== nameAt && o.length !== 1)) {
      throw new Error(`${source}: not one length`);
    }
    if (ops.length === 2) {
      if (nameAt !== 1) throw new Error(`${source}: the name must stand between the values`);
      if (ops[0][0] !== ops[1][0] || ops.includes('='))
        throw new Error(`${source}: mixed comparisons`);
    }
    if (nameAt === 0) add(name, ops[0], operands[1][0]);
    else {
      add(name, flipped[ops[0] as keyof typeof flipped], operands[0][0]);
      if (ops.length === 2) add(name, ops[1], operands[2][0]);
    }
  };

  const inParens = (negate: boolean) => {
    expect('(');
    if (isDelim(peek(), '(') || isIdent(peek(), 'not')) condition(negate, true);
    else feature(negate);
    expect(')');
  };

  const condition = (negate: boolean, orAllowed: boolean) => {
    if (isIdent(peek(), 'not')) {
      i++;
      inParens(!negate);
      return;
    }
    inParens(negate);
    let joiner: string | undefined;
    while (isIdent(peek(), 'and') || isIdent(peek(), 'or')) {
      const word = (peek() as { value: string }).value;
      if (joiner && joiner !== word) throw new Error('"and" and "or" mixed without parentheses');
      if (word === 'or' && !orAllowed) throw new Error('"or" after a media type');
      joiner = word;
      i++;
      inParens(negate);
    }
  };

  const query = () => {
    let negate = false;
    let typed = false;
    if (isIdent(peek(), 'only') && isIdent(peek(1))) {
      i += 2;
      typed = true;
    } else if (isIdent(peek(), 'not') && isIdent(peek(1))) {
      i += 2;
      negate = true;
      typed = true;
    } else if (isIdent(peek()) && !isIdent(peek(), 'not')) {
      i++;
      typed = true;
    }
    if (!typed) condition(false, true);
    else if (isIdent(peek(), 'and')) {
      i++;
      condition(negate, false);
    }
  };

  query();
  while (isDelim(peek(), ',')) {
    i++;
    query();
  }
  if (i !== tokens.length) throw new Error(`unexpected tokens from token ${i}`);
  return found;
}

/** A width where the layout may change, and why. */
interface Breakpoint {
  at: number;
  why: string;
}

const spec: Breakpoint[] = [
  { at: WideLayoutMinWidth, why: 'narrow layout up to NarrowLayoutMaxWidth, wide from here' },
  { at: MenuCollapseBelow, why: 'the menu collapses under MenuCollapseBelow' },
];

/** Breakpoints the spec does not name, each with its reason. */
const exceptions: Breakpoint[] = [
  {
    at: 380,
    why: 'inside the narrow layout, phones under 380px: the menu button drops its word, the social links go two by two',
  },
  { at: 900, why: 'inside the wide layout, the row of four facts once each has room' },
];

const near = (a: number, b: number) => Math.abs(a - b) < 1e-6;

/**
 * The breakpoint a width condition stands for, if it is one of breakpoints:
 * `>= at` and `< at` are exact; `<= x` and `> x` may use the spec's
 * NarrowLayoutMaxWidth for the layout switch, or at - 0.02 (the usual way to
 * stay clear of fractional widths).
 */
function breakpointOf(c: WidthCondition, breakpoints: Breakpoint[]): Breakpoint | undefined {
  return breakpoints.find((b) => {
    if (c.op === '>=' || c.op === '<') return near(c.px, b.at);
    if (c.op === '<=' || c.op === '>') {
      return (
        near(c.px, b.at - 0.02) || (b.at === WideLayoutMinWidth && near(c.px, NarrowLayoutMaxWidth))
      );
    }
    return false;
  });
}

/** Every @media rule of every stylesheet: file, line, prelude and its width conditions. */
function mediaRules() {
  const rules: Array<{
    path: string;
    where: string;
    conditions: WidthCondition[];
    error: string | undefined;
  }> = [];
  for (const { path, root } of parsed) {
    root.walkAtRules(/^media$/i, (rule) => {
      const where = `${path}:${lineOf(rule)} @media ${rule.params}`;
      try {
        rules.push({ path, where, conditions: widthConditions(rule.params), error: undefined });
      } catch (err) {
        rules.push({ path, where, conditions: [], error: (err as Error).message });
      }
    });
  }
  return rules;
}

describe('reading media queries', () => {
  it.each([
    ['(max-width: 649px)', [['<=', 649]]],
    ['(min-width:650px)', [['>=', 650]]],
    ['screen and (max-width: 1199.98px)', [['<=', 1199.98]]],
    ['only screen and (min-width: 40.625em)', [['>=', 650]]],
    ['(width < 650px)', [['<', 650]]],
    ['(650px <= width)', [['>=', 650]]],
    [
      '(650px <= width < 1200px)',
      [
        ['>=', 650],
        ['<', 1200],
      ],
    ],
    [
      '(1200px > width >= 650px)',
      [
        ['<', 1200],
        ['>=', 650],
      ],
    ],
    ['not all and (min-width: 650px)', [['<', 650]]],
    ['(not (width >= 650px))', [['<', 650]]],
    ['(hover: hover) and (min-width: 75rem)', [['>=', 1200]]],
    ['print, (max-width: 649px)', [['<=', 649]]],
    ['(prefers-reduced-motion: reduce)', []],
    ['(min-aspect-ratio: 16/9) or (orientation: landscape)', []],
  ])('%s', (prelude, want) => {
    expect(widthConditions(prelude).map((c) => [c.op, c.px])).toEqual(want);
  });

  it.each([
    '(max-width 640px)',
    '(max-width: 40vw)',
    '(max-width: calc(650px - 1px))',
    '(width <= )',
    '(min-width < 650px)',
    '(width)',
    '(min-device-width: 650px)',
    '(min-width: 650px) and (hover) or (color)',
    '(min-width: 650px',
  ])('refuses %s', (prelude) => {
    expect(() => widthConditions(prelude)).toThrow();
  });
});

describe('CSS breakpoints', () => {
  const rules = mediaRules();

  it('finds the stylesheets and their media queries', () => {
    expect(sheets.map((s) => s.path)).toContain('shared/global.css');
    expect(rules.length).toBeGreaterThan(10);
  });

  it('reads every media query of every stylesheet', () => {
    expect(rules.filter((r) => r.error).map((r) => `${r.where}: ${r.error}`)).toEqual([]);
  });

  it('uses only the spec breakpoints and the listed exceptions', () => {
    const allowed = [...spec, ...exceptions];
    const stray = rules.flatMap((r) =>
      r.conditions
        .filter((c) => !breakpointOf(c, allowed))
        .map((c) => `${r.where}: width ${c.op} ${c.px}px is no allowed breakpoint`),
    );
    expect(stray).toEqual([]);
  });

  it('still needs every listed exception', () => {
    const used = new Set(
      rules.flatMap((r) => r.conditions.map((c) => breakpointOf(c, exceptions)?.at)),
    );
    expect(exceptions.filter((e) => !used.has(e.at)).map((e) => e.at)).toEqual([]);
  });

  it('collapses the menu under MenuCollapseBelow', () => {
    const header = rules.filter((r) => r.path.endsWith('features/site/header.css'));
    const collapse = header.flatMap((r) => r.conditions).filter((c) => c.op.startsWith('<'));
    expect(collapse.some((c) => breakpointOf(c, spec)?.at === MenuCollapseBelow)).toBe(true);
  });

  it('switches between the narrow and the wide layout', () => {
    const pages = rules.filter((r) => r.path.endsWith('features/site/pages.css'));
    const at = (side: string) =>
      pages
        .flatMap((r) => r.conditions)
        .filter((c) => c.op.startsWith(side))
        .map((c) => breakpointOf(c, spec)?.at);
    expect(at('<')).toContain(WideLayoutMinWidth);
    expect(at('>')).toContain(WideLayoutMinWidth);
  });
});

// ---- Reduced motion -----------------------------------------------------------

const reduceQuery = '(prefers-reduced-motion: reduce)';

/** The motion a declaration starts, if any. */
function motionOf(decl: Declaration): 'animation' | 'transition' | undefined {
  if (decl.value.trim() === 'none') return undefined;
  if (decl.prop === 'animation' || decl.prop === 'animation-name') return 'animation';
  if (decl.prop === 'transition' || decl.prop === 'transition-property') return 'transition';
  return undefined;
}

/** Reports whether decl turns motion of kind off. */
function turnsOff(decl: Declaration, kind: 'animation' | 'transition'): boolean {
  return (
    decl.value.trim() === 'none' &&
    (decl.prop === kind || decl.prop === `${kind}-${kind === 'animation' ? 'name' : 'property'}`)
  );
}

const selectorsOf = (rule: Rule) => rule.selectors.map((s) => s.trim().replace(/\s+/g, ' '));

/** The declarations directly in rule (not in a rule nested in it). */
const declarationsOf = (rule: Rule) =>
  rule.nodes.filter((node): node is Declaration => node.type === 'decl');

/**
 * Every animation or transition of every stylesheet that a later rule of the
 * same file does not turn off under (prefers-reduced-motion: reduce), as
 * "file:line selector: kind".
 */
function motionLeftOn(): string[] {
  const problems: string[] = [];
  for (const { path, root } of parsed) {
    const all: Array<[Rule, string[]]> = [];
    root.walkRules((rule) => {
      const outside = around(rule);
      if (!outside.some((p) => /^@(-\w+-)?keyframes\b/.test(p))) all.push([rule, outside]);
    });
    const inReduce = (outside: string[]) => outside.some((p) => p === `@media ${reduceQuery}`);
    const gated = (outside: string[]) =>
      outside.some((p) => /prefers-reduced-motion:\s*no-preference/.test(p));
    for (const [rule, outside] of all) {
      if (inReduce(outside) || gated(outside)) continue;
      for (const decl of declarationsOf(rule)) {
        const kind = motionOf(decl);
        if (!kind) continue;
        for (const selector of selectorsOf(rule)) {
          const off = all.some(
            ([other, otherOutside]) =>
              inReduce(otherOutside) &&
              offsetOf(other) > offsetOf(rule) &&
              selectorsOf(other).some((s) => s === selector || s === '*') &&
              declarationsOf(other).some((d) => turnsOff(d, kind)),
          );
          if (!off) problems.push(`${path}:${lineOf(rule)} ${selector}: ${kind}`);
        }
      }
    }
  }
  return problems;
}

describe('CSS for visitors who prefer reduced motion', () => {
  it('writes the query one way, so the check below finds every block', () => {
    const odd: string[] = [];
    for (const { path, root } of parsed) {
      root.walkAtRules((rule) => {
        const p = preludeOf(rule);
        if (!p.includes('prefers-reduced-motion')) return;
        if (p !== `@media ${reduceQuery}` && !/no-preference\)$/.test(p)) odd.push(`${path}: ${p}`);
      });
    }
    expect(odd).toEqual([]);
  });

  it('turns off every animation and transition, in a later rule for the same selector', () => {
    expect(motionLeftOn()).toEqual([]);
  });
});
