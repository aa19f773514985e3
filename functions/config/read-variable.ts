import { ENV_VARIABLES, envVariable, type EnvVariable } from './env-variables.ts';
import { expected, type VariableKind } from './variable-kinds.ts';

/** The environment as the configuration reads it: `process.env`, or a function host's bindings. */
export type Env = Record<string, string | undefined>;

/** Thrown when a variable has a value the service cannot run with; the message names the variable. */
export class ConfigError extends Error {
  constructor(variable: EnvVariable, value: string, expected: string) {
    super(`Invalid ${variable}=${JSON.stringify(value)}: expected ${expected}.`);
    this.name = 'ConfigError';
  }
}

/** A variable's value as the service reads it: the environment's, or the default when unset or empty. */
export function effectiveValue(env: Env, variable: EnvVariable): string {
  const value = env[variable];
  if (value !== undefined && value !== '') return value;
  const row = envVariable(variable);
  return row.defaultIn?.(env).value ?? row.default;
}

/** What the kind of `V` makes of its text: a number for an integer, a RateQuota for a quota, ... */
export type VariableValue<V extends EnvVariable> =
  (typeof ENV_VARIABLES)[V]['kind'] extends VariableKind<infer T> ? T : never;

/**
 * A variable's effective value read by its kind (env-variables.ts); a value the kind refuses
 * throws a ConfigError naming the variable, the value and what the kind accepts.
 */
export function readVariable<V extends EnvVariable>(env: Env, variable: V): VariableValue<V> {
  // Indexed by a type parameter, the row's kind loses its own value type; VariableValue restores it.
  const kind = ENV_VARIABLES[variable].kind as VariableKind<VariableValue<V>>;
  const reading = kind.read(effectiveValue(env, variable));
  if ('refused' in reading) throw new ConfigError(variable, reading.refused, expected(kind));
  return reading.value;
}
