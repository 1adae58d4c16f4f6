// Who and when: author and committer from GIT_AUTHOR_* / GIT_COMMITTER_*,
// author.* / committer.* / user.* configuration, else the account name and
// the host name, as git's ident code decides.

import { users } from '../../../../userland/lib/users.js';
import type { Ctx } from './ctx.js';
import { localTz, parseDate } from './date.js';
import type { Ident } from './objects.js';

export interface Who extends Ident {
  /** Name and email came from the environment or configuration (not guessed). */
  explicit: boolean;
}

function account(ctx: Ctx): { login: string; gecos: string } {
  const uid = ctx.sys.getuid();
  const u = users(ctx.sys).find((x) => x.id === uid);
  const login = u?.name ?? ctx.env.USER ?? ctx.env.LOGNAME ?? 'user';
  let gecos = '';
  try {
    const line = new TextDecoder().decode(ctx.sys.readFile('/etc/passwd')).split('\n').find((l) => l.split(':')[0] === login);
    gecos = (line?.split(':')[4] ?? '').split(',')[0];
  } catch {
    // no passwd: the login will do
  }
  return { login, gecos };
}

export function whoIs(ctx: Ctx, role: 'author' | 'committer', when?: { time: number; tz: string }): Who {
  const up = role.toUpperCase();
  let name = ctx.env[`GIT_${up}_NAME`] ?? ctx.config(`${role}.name`) ?? ctx.config('user.name');
  let email = ctx.env[`GIT_${up}_EMAIL`] ?? ctx.config(`${role}.email`) ?? ctx.config('user.email') ?? ctx.env.EMAIL;
  const explicit = name !== undefined && email !== undefined;
  if (name === undefined || email === undefined) {
    if (ctx.configBool('user.useConfigOnly', false)) identityUnknown(ctx, role);
    const acct = account(ctx);
    name ??= acct.gecos || acct.login;
    email ??= `${acct.login}@${ctx.sys.uname().nodename ?? 'localhost'}`;
  }
  if (name.trim() === '') {
    if (ctx.env[`GIT_${up}_NAME`] !== undefined || ctx.config('user.name') !== undefined) ctx.fatal(`empty ident name (for <${email}>) not allowed`);
    identityUnknown(ctx, role);
  }
  let date = when;
  const envDate = ctx.env[`GIT_${up}_DATE`];
  if (!date && envDate) {
    const d = parseDate(envDate);
    if (!d) ctx.fatal(`invalid date format: ${envDate}`);
    date = d;
  }
  if (!date) {
    const now = Math.floor(Date.now() / 1000);
    date = { time: now, tz: localTz(now) };
  }
  return { name: name.trim(), email: email.trim(), time: date.time, tz: date.tz, explicit };
}

function identityUnknown(ctx: Ctx, role: string): never {
  ctx.err(
    `${role === 'author' ? 'Author' : 'Committer'} identity unknown\n\n*** Please tell me who you are.\n\nRun\n\n` +
      '  git config --global user.email "you@example.com"\n  git config --global user.name "Your Name"\n\n' +
      "to set your account's default identity.\nOmit --global to set the identity only in this repository.\n\n",
  );
  ctx.fatal('unable to auto-detect email address');
}

/** isomorphic-git's shape for an identity (its timezoneOffset counts minutes west; -0 writes `-0000`). */
export function isoIdent(w: Ident): { name: string; email: string; timestamp: number; timezoneOffset: number } {
  const m = /^([+-])(\d\d)(\d\d)$/.exec(w.tz)!;
  const east = (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
  return { name: w.name, email: w.email, timestamp: w.time, timezoneOffset: east === 0 ? (m[1] === '-' ? -0 : 0) : -east };
}
