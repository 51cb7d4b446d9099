/**
 * Environment configuration validated at start. Each service declares the variables it reads;
 * a bad value stops the process with a clear message instead of failing later.
 */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Kind = 'string' | 'int' | 'url' | 'bool' | 'port';
interface VarSpec<K extends Kind> {
  kind: K;
  /** Env names tried in order (per-service variant first, then the shared one). */
  names: string[];
  default?: KindType<K>;
  required?: boolean;
  min?: number;
  max?: number;
  protocols?: string[];
  doc?: string;
}
type KindType<K extends Kind> = K extends 'int' | 'port' ? number : K extends 'bool' ? boolean : string;

export type ConfigSpec = Record<string, VarSpec<Kind>>;
export type ConfigOf<S extends ConfigSpec> = {
  [K in keyof S]: S[K] extends VarSpec<infer T> ? (S[K] extends { required: true } ? KindType<T> : S[K] extends { default: KindType<T> } ? KindType<T> : KindType<T> | undefined) : never;
};

type Opts<K extends Kind> = Partial<Omit<VarSpec<K>, 'kind' | 'names'>>;
const mk =
  <K extends Kind>(kind: K) =>
  <O extends Opts<K> = Record<never, never>>(names: string[], o?: O): VarSpec<K> & O =>
    ({ kind, names, ...(o ?? {}) }) as VarSpec<K> & O;

export const v = {
  string: mk('string'),
  int: mk('int'),
  port: mk('port'),
  bool: mk('bool'),
  url: mk('url'),
};

export function loadConfig<S extends ConfigSpec>(spec: S, env: NodeJS.ProcessEnv = process.env): ConfigOf<S> {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, s] of Object.entries(spec)) {
    const name = s.names.find((n) => env[n] !== undefined && env[n] !== '');
    const raw = name === undefined ? undefined : env[name];
    const label = name ?? s.names.join(' or ');
    if (raw === undefined) {
      if (s.required) problems.push(`${label} is required${s.doc ? ` (${s.doc})` : ''}`);
      out[key] = s.default;
      continue;
    }
    switch (s.kind) {
      case 'int':
      case 'port': {
        if (!/^-?\d+$/.test(raw)) {
          problems.push(`${label}=${JSON.stringify(raw)} is not an integer`);
          break;
        }
        const n = Number(raw);
        const min = s.kind === 'port' ? 0 : s.min;
        const max = s.kind === 'port' ? 65535 : s.max;
        if ((min !== undefined && n < min) || (max !== undefined && n > max)) {
          problems.push(`${label}=${raw} is out of range [${min ?? '-inf'}, ${max ?? 'inf'}]`);
          break;
        }
        out[key] = n;
        break;
      }
      case 'bool': {
        const t = raw.toLowerCase();
        if (['1', 'true', 'yes', 'on'].includes(t)) out[key] = true;
        else if (['0', 'false', 'no', 'off'].includes(t)) out[key] = false;
        else problems.push(`${label}=${JSON.stringify(raw)} is not a boolean (use 1/0, true/false)`);
        break;
      }
      case 'url': {
        try {
          const u = new URL(raw);
          if (s.protocols && !s.protocols.includes(u.protocol.replace(/:$/, ''))) {
            problems.push(`${label} must use ${s.protocols.join(' or ')}://, got ${u.protocol}//`);
            break;
          }
          out[key] = raw;
        } catch {
          problems.push(`${label}=${JSON.stringify(raw)} is not a valid URL`);
        }
        break;
      }
      default:
        out[key] = raw;
    }
  }
  if (problems.length) throw new ConfigError(problems);
  return out as ConfigOf<S>;
}

/** Runs a process entry point: configuration errors print plainly and exit 1 (no stack trace). */
export async function runMain(fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    if (err instanceof ConfigError || (err instanceof Error && err.name === 'DataDirLockedError')) {
      process.stderr.write(`${err.message}\n`);
    } else {
      process.stderr.write(`fatal: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    }
    process.exit(1);
  }
}
