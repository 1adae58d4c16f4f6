// Does a persistent VM's storage survive a browser restart? Written against
// the least a browser driver offers (open a URL, evaluate an expression,
// close the browser), so Playwright's Chromium and the WebDriver-driven
// Firefox and WebKit run the same check: each passes a function that launches
// its browser on a profile directory.

/** One page of a browser launched on a profile directory. */
export interface ProfileBrowser {
  goto(url: string): Promise<void>;
  /** The JSON value of a JavaScript expression (awaited if a promise) in the page. */
  evaluate<T>(expression: string): Promise<T>;
  /** Close the whole browser, every process, so the next launch reads the profile from disk. */
  close(): Promise<void>;
}

export type LaunchWithProfile = (profileDir: string) => Promise<ProfileBrowser>;

export interface RestartResult {
  /** What the files were when written, and what the relaunched browser read back (same text when they survived). */
  written: string;
  readBack: string;
  /** navigator.storage.persist()'s answer to the VM (AgentVM.persisted), in the first and the second browser. */
  persisted: [boolean | null, boolean | null];
  /** The playground's line saying it, as the user reads it. */
  shown: string;
}

// The playground's window.agentos, once the VM is up (the page sets it after its isolation check).
const VM_READY = `new Promise((ok, fail) => {
  const t0 = Date.now();
  const poll = () => window.agentos ? window.agentos.ready.then(ok, fail)
    : Date.now() - t0 > 60000 ? fail(new Error('no window.agentos after 60 s: ' + document.body.innerText.slice(0, 300)))
    : setTimeout(poll, 50);
  poll();
})`;
const PERSISTED = `(window.agentos.vm.persisted ?? Promise.resolve(null))`;
// A text file, random bytes, a mode, a directory, a symlink, and a deletion.
const WRITE = `window.agentos.exec([
  'mkdir -p ~/kept/dir && cd ~/kept',
  'printf "line one\\nline two\\n" > dir/text',
  'head -c 65536 /dev/urandom > bytes',
  'chmod 750 dir/text && ln -s dir/text link && touch gone && rm gone',
].join(' && ')).then((r) => r.exitCode === 0 ? null : r.stderr)`;
const LIST = `window.agentos.exec('cd ~/kept && find . | sort && stat -c "%n %a %s" dir/text bytes && sha256sum dir/text bytes && readlink link')
  .then((r) => r.stdout + r.stderr + 'exit ' + r.exitCode)`;

/** Write files in persistent VM `vm` of the playground at `appUrl`, restart the browser on the same profile, read them back. */
export async function filesSurviveRestart(launch: LaunchWithProfile, appUrl: string, profileDir: string, vm: string): Promise<RestartResult> {
  const url = new URL(`?vm=${encodeURIComponent(vm)}`, appUrl).href;
  const first = await launch(profileDir);
  let written: string;
  let persistedBefore: boolean | null;
  try {
    await first.goto(url);
    await first.evaluate(VM_READY);
    const failed = await first.evaluate<string | null>(WRITE);
    if (failed !== null) throw new Error(`writing the files failed: ${failed}`);
    written = await first.evaluate<string>(LIST);
    persistedBefore = await first.evaluate<boolean | null>(PERSISTED);
  } finally {
    await first.close();
  }
  const second = await launch(profileDir);
  try {
    await second.goto(url);
    await second.evaluate(VM_READY);
    const readBack = await second.evaluate<string>(LIST);
    const persistedAfter = await second.evaluate<boolean | null>(PERSISTED);
    // The line appears once the answer is in (it is, above).
    const shown = await second.evaluate<string>(`new Promise((ok) => { const t = setInterval(() => {
      const e = document.getElementById('storage-kept'); if (e && !e.hidden) { clearInterval(t); ok(e.textContent); } }, 50); })`);
    return { written, readBack, persisted: [persistedBefore, persistedAfter], shown };
  } finally {
    await second.close();
  }
}
