// Environment conventions shared by the kernel, the user library and hosts.

/** The search path every agentOS process starts with. */
export const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/opt/agentos/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Value of NAME in a KEY=VALUE list, or undefined. */
export function getenv(env: readonly string[], name: string): string | undefined {
  const prefix = `${name}=`;
  for (let i = env.length - 1; i >= 0; i--) if (env[i].startsWith(prefix)) return env[i].slice(prefix.length);
  return undefined;
}
