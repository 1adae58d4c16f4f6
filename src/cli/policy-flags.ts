// The policy flags of `agentos exec`, `agentos shell` and `agentos mcp`: each
// builds one part of the AgentVM `policy` object (README, "The policy");
// --policy FILE reads a whole one, and later flags add to it.

import { readFileSync, writeFileSync } from 'node:fs';
import type { AgentVMOptions, Answer, Policy } from '../host/node/index.js';
import type { NetworkPolicy } from '../api/policy.js';
import type { VM } from '../host/api/vm.js';
import { checkPolicy } from '../host/check-policy.js';
import { optionValue } from './option-value.js';

export const POLICY_USAGE = `Policy options (exec, shell and mcp; see README, "The policy"):
  --policy FILE.json      the policy object from a file (the flags below add to it)
  --network none|all      the guest's network (default none; all: public hosts only)
  --allow-host SPEC       only these hosts (repeat), e.g. example.com, '*.example.com',
                          'https://api.x.com:443 GET,POST', localhost:8080
  --ask-host SPEC         as --allow-host, but each request waits for --approve
  --read-only PATH        the guest cannot change anything under PATH (EROFS)
  --hidden PATH           PATH does not exist for the guest (ENOENT)
  --ask-path PATH         opening or changing files under PATH waits for --approve
  --allow-cmd PATH        only listed commands run (repeat; the shells are always allowed)
  --ask-cmd PATH          running PATH waits for --approve
  --no-sudo               sudo and su cannot make the guest root (policy processes.sudo: false)
  --max-procs N           processes alive at once (EAGAIN beyond)
  --cpu-time MS           CPU time per process, per exec for the shell (SIGXCPU)
  --wall-time MS          wall time per process, per exec for the shell (SIGKILL)
  --max-open-files N      open descriptors per process (EMFILE)
  --max-file-size BYTES   largest file a process may write (EFBIG, SIGXFSZ)
  --max-layer-bytes BYTES file data each writable layer (the root's, /tmp) may hold (ENOSPC)
  --max-output BYTES      stdout and stderr kept per exec (the rest dropped, reported as truncated)
  --max-memory BYTES      memory per process: WebAssembly (malloc fails), JavaScript heap (killed)
                          Each limit takes a number (0 is a limit of zero) or 'none' (no limit);
                          without the flag, the default sized for this host (README, "The defaults")
  --secret NAME=ENV_VAR@HOST[,HOST...]
                          a host-held secret: the guest's $NAME is a placeholder, and the kernel puts
                          the value of this host's ENV_VAR in request headers bound for HOST
                          (api.x.com or *.x.com) only; the value never enters the VM
  --mask-env NAME         the value of the VM's variable NAME never appears in the audit trail or
                          others' environ (--secret NAME, without =, is the same)
  --approve ANSWER        how every ask is answered: once, always, never or deny (default deny)
  --audit FILE            write the audit trail (JSON lines) to FILE when the VM stops`;

export interface PolicyFlags {
  policy: Policy;
  approve: Answer;
  audit?: string;
  /** --network and --allow-host, made into policy.network by finishPolicy. */
  network?: string;
  allowHosts: string[];
}

const LISTS: Record<string, [keyof Policy, string]> = {
  '--read-only': ['fs', 'readOnly'],
  '--hidden': ['fs', 'hidden'],
  '--ask-path': ['fs', 'ask'],
  '--allow-cmd': ['processes', 'allow'],
  '--ask-cmd': ['processes', 'ask'],
  '--mask-env': ['env', 'secrets'],
};

const NUMBERS: Record<string, string> = {
  '--max-procs': 'maxProcesses',
  '--cpu-time': 'cpuTimeMs',
  '--wall-time': 'wallTimeMs',
  '--max-open-files': 'maxOpenFiles',
  '--max-file-size': 'maxFileSize',
  '--max-layer-bytes': 'maxLayerBytes',
  '--max-output': 'maxExecOutput',
  '--max-memory': 'maxMemoryBytes',
};

export function newPolicyFlags(): PolicyFlags {
  return { policy: {}, approve: 'deny', allowHosts: [] };
}

/**
 * If args[i] is a policy flag, apply it (with its value args[i + 1]) and
 * return how many arguments it took; 0 if it is not one. Throws on a bad value.
 */
export function takePolicyFlag(args: string[], i: number, f: PolicyFlags): number {
  const flag = args[i];
  if (flag === '--no-sudo') {
    f.policy = { ...f.policy, processes: { ...f.policy.processes, sudo: false } };
    return 1;
  }
  if (!(flag in LISTS) && !(flag in NUMBERS) && !['--policy', '--approve', '--audit', '--network', '--allow-host', '--ask-host', '--secret'].includes(flag)) return 0;
  const value = optionValue(args, i);
  const p = f.policy as Record<string, Record<string, unknown>>;
  if (flag === '--policy') {
    const file = JSON.parse(readFileSync(value, 'utf8')) as Policy;
    f.policy = { ...file, ...f.policy };
  } else if (flag === '--approve') {
    if (!['once', 'always', 'never', 'deny'].includes(value)) throw new Error(`--approve: '${value}' is not once, always, never or deny`);
    f.approve = value as Answer;
  } else if (flag === '--audit') {
    f.audit = value;
  } else if (flag === '--network') {
    f.network = value;
  } else if (flag === '--allow-host') {
    f.allowHosts.push(value);
  } else if (flag === '--ask-host') {
    f.allowHosts.push(`${value} ask`);
  } else if (flag === '--secret') {
    if (value.includes('=')) f.policy = { ...f.policy, secrets: { ...f.policy.secrets, ...hostSecret(value) } };
    else p.env = { ...p.env, secrets: [...((p.env?.secrets as string[] | undefined) ?? []), value] };
  } else if (flag in LISTS) {
    const [section, key] = LISTS[flag];
    p[section] ??= {};
    p[section][key] = [...((p[section][key] as string[] | undefined) ?? []), value];
  } else {
    const n = value === 'none' ? value : Number(value);
    if (n !== 'none' && (value.trim() === '' || !(n >= 0))) throw new Error(`${flag}: '${value}' is not a number or 'none'`);
    p.processes ??= {};
    p.processes[NUMBERS[flag]] = n === Infinity ? 'none' : n;
  }
  return 2;
}

/** `--secret NAME=ENV_VAR@HOST[,HOST...]`: the value from this process's environment (policy.secrets). */
export function hostSecret(spec: string, env: NodeJS.ProcessEnv = process.env): NonNullable<Policy['secrets']> {
  const m = /^([^=]+)=([^@]+)@(.+)$/.exec(spec);
  if (!m) throw new Error(`--secret: '${spec}' is not NAME=ENV_VAR@HOST[,HOST...]`);
  const [, name, variable, hosts] = m;
  const value = env[variable];
  if (value === undefined) throw new Error(`--secret ${name}: the environment variable ${variable} is not set`);
  return { [name]: { value, hosts: hosts.split(',') } };
}

/** The CLI's flags (`--network none|all`, `--allow-host SPEC`...) as a policy; allow-hosts imply an allowlist. */
export function policyFromFlags(network: string | undefined, allowHosts: string[]): NetworkPolicy {
  if (allowHosts.length) {
    if (network !== undefined && network !== 'allowlist') throw new Error(`--allow-host does not go with --network ${network}`);
    return { allow: allowHosts };
  }
  if (network === undefined || network === 'none' || network === 'all') return network ?? 'none';
  throw new Error(`--network must be none, all or allowlist (with --allow-host), not '${network}'`);
}

/**
 * After the last flag: the network flags become policy.network (over a
 * --policy file's), and the whole policy is checked. Throws on a bad one.
 */
export function finishPolicy(f: PolicyFlags): Policy {
  if (f.network !== undefined || f.allowHosts.length) f.policy = { ...f.policy, network: policyFromFlags(f.network, f.allowHosts) };
  checkPolicy(f.policy);
  return f.policy;
}

/** The AgentVM options the flags give: the policy, and --approve as every ask's answer. */
export function policyOptions(f: PolicyFlags): Pick<AgentVMOptions, 'policy' | 'onApproval'> {
  return { policy: f.policy, onApproval: () => f.approve };
}

/** Stop the VM (Node or browser host), writing its audit trail first if --audit asked for it. */
export async function stopVm(vm: Pick<VM, 'audit' | 'stop'>, f: PolicyFlags): Promise<void> {
  try {
    if (f.audit) writeFileSync(f.audit, (await vm.audit()).map((e) => JSON.stringify(e) + '\n').join(''));
  } finally {
    await vm.stop();
  }
}
