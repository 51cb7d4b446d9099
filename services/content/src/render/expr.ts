/*
 * {{#expr:}} and {{#ifexpr:}} (ParserFunctions' ExprParser): arithmetic, comparison and logic
 * with PHP's number formatting. Errors are thrown as ExprError with ParserFunctions' English
 * messages; the caller renders them as <strong class="error">.
 */

export class ExprError extends Error {}

type Tok = { t: 'num'; v: number } | { t: 'op'; v: string } | { t: '(' } | { t: ')' };

const WORDS = new Set(['mod', 'div', 'and', 'or', 'not', 'round', 'e', 'pi', 'trunc', 'floor', 'ceil', 'abs', 'exp', 'ln', 'sin', 'cos', 'tan', 'asin', 'acos', 'atan', 'sqrt', 'fmod']);
const UNARY_FUNCS = new Set(['not', 'trunc', 'floor', 'ceil', 'abs', 'exp', 'ln', 'sin', 'cos', 'tan', 'asin', 'acos', 'atan', 'sqrt']);

function tokenize(s: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const num = /^(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?/i.exec(s.slice(i));
    if (num) {
      out.push({ t: 'num', v: parseFloat(num[0]) });
      i += num[0].length;
      continue;
    }
    const word = /^[a-z]+/i.exec(s.slice(i));
    if (word) {
      const w = word[0].toLowerCase();
      if (!WORDS.has(w)) throw new ExprError(`Expression error: Unrecognized word "${w}".`);
      if (w === 'e') out.push({ t: 'num', v: Math.E });
      else if (w === 'pi') out.push({ t: 'num', v: Math.PI });
      else out.push({ t: 'op', v: w });
      i += w.length;
      continue;
    }
    const op = /^(?:<=|>=|<>|!=|[-+*/^=<>])/.exec(s.slice(i));
    if (op) {
      out.push({ t: 'op', v: op[0] });
      i += op[0].length;
      continue;
    }
    if (c === '(') out.push({ t: '(' });
    else if (c === ')') out.push({ t: ')' });
    else throw new ExprError(`Expression error: Unrecognized punctuation character "${c}".`);
    i++;
  }
  return out;
}

const BINARY: Record<string, number> = {
  or: 1,
  and: 2,
  '=': 4,
  '!=': 4,
  '<>': 4,
  '<': 4,
  '>': 4,
  '<=': 4,
  '>=': 4,
  round: 5,
  '+': 6,
  '-': 6,
  '*': 7,
  '/': 7,
  div: 7,
  mod: 7,
  fmod: 7,
  '^': 9,
};

class Parser {
  private i = 0;
  constructor(private readonly toks: Tok[]) {}

  parse(): number {
    if (this.toks.length === 0) return NaN;
    const v = this.expr(0);
    const t = this.toks[this.i];
    if (t)
      throw new ExprError(
        t.t === ')' ? 'Expression error: Unexpected closing bracket.' : t.t === 'num' ? 'Expression error: Unexpected number.' : `Expression error: Unexpected ${t.t === 'op' ? t.v : '('} operator.`,
      );
    return v;
  }

  /** `operandOf`: the operator whose operand this is, named in ParserFunctions' missing_operand error. */
  private primary(operandOf?: string): number {
    const t = this.toks[this.i++];
    if (!t) throw new ExprError(`Expression error: Missing operand for ${operandOf ?? 'an operator'}.`);
    if (t.t === 'num') return t.v;
    if (t.t === '(') {
      const v = this.expr(0);
      if (this.toks[this.i]?.t !== ')') throw new ExprError('Expression error: Unclosed bracket.');
      this.i++;
      return v;
    }
    if (t.t === ')') throw new ExprError('Expression error: Unexpected closing bracket.');
    if (t.v === '-') return -this.unaryOperand('-');
    if (t.v === '+') return this.unaryOperand('+');
    if (UNARY_FUNCS.has(t.v)) {
      const x = this.unaryOperand(t.v);
      switch (t.v) {
        case 'not':
          return x === 0 ? 1 : 0;
        case 'trunc':
          return Math.trunc(x);
        case 'floor':
          return Math.floor(x);
        case 'ceil':
          return Math.ceil(x);
        case 'abs':
          return Math.abs(x);
        case 'exp':
          return Math.exp(x);
        case 'ln':
          if (x <= 0) throw new ExprError('Invalid argument for ln: <= 0.');
          return Math.log(x);
        case 'sin':
          return Math.sin(x);
        case 'cos':
          return Math.cos(x);
        case 'tan':
          return Math.tan(x);
        case 'asin':
          if (x < -1 || x > 1) throw new ExprError('Invalid argument for asin: < -1 or > 1.');
          return Math.asin(x);
        case 'acos':
          if (x < -1 || x > 1) throw new ExprError('Invalid argument for acos: < -1 or > 1.');
          return Math.acos(x);
        case 'atan':
          return Math.atan(x);
        default:
          if (x < 0) throw new ExprError('In sqrt: Result is not a number.');
          return Math.sqrt(x);
      }
    }
    // A binary operator where an operand should be.
    throw new ExprError(`Expression error: Unexpected ${t.v} operator.`);
  }

  /** Unary operators bind tighter than every binary one except '^'. */
  private unaryOperand(op: string): number {
    const base = this.primary(op);
    return this.powTail(base);
  }

  private powTail(base: number): number {
    const t = this.toks[this.i];
    if (t?.t === 'op' && t.v === '^') {
      this.i++;
      const exp = this.unaryOperand('^');
      return base ** exp;
    }
    return base;
  }

  private expr(minPrec: number, operandOf?: string): number {
    let left = this.primary(operandOf);
    for (;;) {
      const t = this.toks[this.i];
      if (t?.t !== 'op') {
        if (t && t.t === 'num') throw new ExprError('Expression error: Unexpected number.');
        if (t && t.t === '(') throw new ExprError('Expression error: Unexpected ( operator.');
        return left;
      }
      const prec = BINARY[t.v];
      if (prec === undefined) throw new ExprError(`Expression error: Unexpected ${t.v} operator.`);
      if (prec < minPrec) return left;
      this.i++;
      // '^' is right-associative; the rest left-associative.
      const right = this.expr(t.v === '^' ? prec : prec + 1, t.v);
      left = apply(t.v, left, right);
    }
  }
}

function apply(op: string, a: number, b: number): number {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
    case 'div':
      if (b === 0) throw new ExprError('Division by zero.');
      return a / b;
    case 'mod': {
      const ia = Math.trunc(a);
      const ib = Math.trunc(b);
      if (ib === 0) throw new ExprError('Division by zero.');
      return ia % ib;
    }
    case 'fmod':
      if (b === 0) throw new ExprError('Division by zero.');
      return a % b;
    case '^':
      return a ** b;
    case 'round': {
      const f = 10 ** Math.trunc(b);
      return (Math.sign(a) * Math.round(Math.abs(a) * f)) / f;
    }
    case '=':
      return a === b ? 1 : 0;
    case '!=':
    case '<>':
      return a !== b ? 1 : 0;
    case '<':
      return a < b ? 1 : 0;
    case '>':
      return a > b ? 1 : 0;
    case '<=':
      return a <= b ? 1 : 0;
    case '>=':
      return a >= b ? 1 : 0;
    case 'and':
      return a !== 0 && b !== 0 ? 1 : 0;
    default:
      return a !== 0 || b !== 0 ? 1 : 0;
  }
}

/** PHP's string conversion of a float with precision 14. */
export function phpNumber(x: number): string {
  if (Number.isNaN(x)) return 'NAN';
  if (!Number.isFinite(x)) return x > 0 ? 'INF' : '-INF';
  if (Number.isInteger(x) && Math.abs(x) < 1e15) return String(x);
  let s = x.toPrecision(14);
  if (s.includes('e')) {
    const [mant, exp] = s.split('e');
    let m = mant!.includes('.') ? mant!.replace(/0+$/, '').replace(/\.$/, '.0') : `${mant}.0`;
    if (!m.includes('.')) m += '.0';
    const e = Number(exp);
    s = `${m}E${e >= 0 ? '+' : '-'}${Math.abs(e)}`;
    return s;
  }
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  return s === '-0' ? '0' : s;
}

/** Evaluates an expression; '' for an empty one. */
export function evaluate(expression: string): string {
  const toks = tokenize(expression);
  if (toks.length === 0) return '';
  const v = new Parser(toks).parse();
  return phpNumber(v);
}
