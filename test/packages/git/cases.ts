// The differential cases for git: fixtures (repositories built by the same
// script on both sides) and the commands compared. A case without `fresh`
// only reads its fixture, so all such cases share one copy of it; a `fresh`
// case gets its own copy (the fixture script runs again before it).

export interface GitCase {
  name: string;
  fixture: keyof typeof FIXTURES;
  script: string;
  /** The case changes the repository: give it a fixture of its own (always so for `none` and `empty`). */
  fresh?: boolean;
  /** 'exact' (default), or 'ignore' when only stdout and the status are the point (the reason is in `why`). */
  stderr?: 'exact' | 'ignore';
  why?: string;
}

/** Repositories the cases start from (bash, run after the prelude in an empty directory). */
export const FIXTURES = {
  none: '',
  empty: 'git init -q\n',
  basic: `git init -q
printf 'line1\\nline2\\nline3\\n' > a.txt
mkdir -p src/lib
printf 'int main() {\\n  return 0;\\n}\\n' > src/main.c
printf 'lib\\n' > src/lib/util.c
printf 'x\\000y\\000z' > bin.dat
printf '#!/bin/sh\\necho hi\\n' > run.sh
chmod +x run.sh
ln -s a.txt link
git add .
git commit -qm 'initial commit'
tick
printf 'line1\\nline2 changed\\nline3\\nline4\\n' > a.txt
git commit -qam 'second: edit a'
git tag v1
git checkout -qb feature
printf 'feature\\n' > feature.txt
git add feature.txt
tick
git commit -qm 'feature work'
printf 'lib2\\n' >> src/lib/util.c
tick
git commit -qam 'feature: util'
git checkout -q master
git rm -q src/main.c
tick
git commit -qm 'remove main'
tick
git tag -a v2 -m 'release 2'
`,
  dirty: `git init -q
printf 'one\\ntwo\\nthree\\n' > a.txt
printf 'keep\\n' > keep.txt
printf 'gone\\n' > gone.txt
mkdir sub
printf 'inner\\n' > sub/inner.txt
printf '*.log\\nbuild/\\n' > .gitignore
git add .
git commit -qm base
tick
printf 'one\\nTWO\\nthree\\n' > a.txt
printf 'staged\\n' > staged.txt
git add staged.txt
rm gone.txt
printf 'more\\n' >> sub/inner.txt
printf 'untracked\\n' > untracked.txt
mkdir -p newdir/deep build
printf 'n\\n' > newdir/deep/n.txt
printf 'ignored\\n' > debug.log
printf 'b\\n' > build/out.o
`,
  conflict: `git init -q
printf '1\\n2\\n3\\n4\\n5\\n6\\n7\\n8\\n' > f.txt
printf 'keep\\n' > k.txt
printf 'd\\n' > del.txt
git add .
git commit -qm base
git checkout -qb other
printf '1\\n2 other\\n3\\n4\\n5\\n6\\n7\\n8\\n' > f.txt
printf 'theirs\\n' > t.txt
git add t.txt
tick
git commit -qam other
git checkout -q master
printf '1\\n2 master\\n3\\n4\\n5\\n6\\n7\\n8 end\\n' > f.txt
tick
git commit -qam master
`,
  clean: `git init -q
printf '1\\n2\\n3\\n4\\n5\\n6\\n7\\n8\\n' > f.txt
git add f.txt
git commit -qm base
git checkout -qb side
printf 'side\\n' > s.txt
git add s.txt
tick
git commit -qm side
printf '1\\n2\\n3\\n4\\n5\\n6\\n7\\n8 side\\n' > f.txt
tick
git commit -qam 'side edit'
git checkout -q master
printf '1 master\\n2\\n3\\n4\\n5\\n6\\n7\\n8\\n' > f.txt
tick
git commit -qam 'master edit'
`,
  text: `git init -q
cat > prog.c <<'EOF'
#include <stdio.h>

static int add(int a, int b)
{
	return a + b;
}

static int sub(int a, int b)
{
	return a - b;
}

int main(void)
{
	int x = add(1, 2);
	int y = sub(5, 3);
	printf("%d %d\\n", x, y);
	return 0;
}
EOF
seq 1 40 > nums.txt
git add .
git commit -qm text
tick
sed -i 's/return a - b;/return a - b - 0;/; s/int y = sub(5, 3);/int y = sub(9, 3);/' prog.c
sed -i '5d; 20s/.*/twenty/; 38a\\
after38' nums.txt
`,
};

const c = (name: string, fixture: GitCase['fixture'], script: string, extra: Partial<GitCase> = {}): GitCase => ({ name, fixture, script, ...extra });

export const CASES: GitCase[] = [
  // ---- init, repository discovery, errors outside a repository
  c('init: output', 'none', 'git init r; echo $?; ls -A r/.git | sort', { stderr: 'ignore', why: 'git prints a long hint about the default branch name' }),
  c('init: quiet, branch name', 'none', 'git init -q -b trunk r && cat r/.git/HEAD && git -C r status'),
  c('init: config as git writes it', 'none', 'git init -q r && cat r/.git/config'),
  c('init: bare', 'none', 'git init -q --bare r.git && cat r.git/config && cat r.git/HEAD'),
  c('init: reinitialize', 'empty', 'git init'),
  c('status outside a repository', 'none', 'git status; echo "status=$?"'),
  c('log outside a repository', 'none', 'git log; echo "status=$?"'),
  c('unknown subcommand', 'empty', 'git frobnicate; echo "status=$?"'),
  c('-C into a subdirectory', 'basic', 'git -C src status -s; git -C src rev-parse --show-toplevel --show-prefix'),
  c('-c overrides configuration', 'basic', 'git -c user.name=Zed config user.name; git -c core.abbrev=10 log --oneline -1'),
  c('rev-parse: where am I', 'basic', 'cd src/lib && git rev-parse --show-toplevel --show-prefix --show-cdup --is-inside-work-tree --git-dir'),

  // ---- status
  c('status: long format', 'dirty', 'git status'),
  c('status: short format', 'dirty', 'git status -s'),
  c('status: porcelain with branch', 'dirty', 'git status --porcelain -b'),
  c('status: untracked files listed one by one', 'dirty', 'git status -s -uall'),
  c('status: untracked hidden', 'dirty', 'git status -uno'),
  c('status: ignored files', 'dirty', 'git status -s --ignored'),
  c('status: from a subdirectory', 'dirty', 'cd sub && git status -s && git status'),
  c('status: pathspec', 'dirty', 'git status -s -- sub a.txt'),
  c('status: NUL-terminated', 'dirty', 'git status -z | od -c'),
  c('status: clean tree', 'basic', 'git status; git status -s'),
  c('status: no commits yet', 'empty', 'printf x > f; git status; git add f; git status -s -b'),
  c('status: detached HEAD', 'basic', 'git checkout -q v1 && git status && git status -sb', { fresh: true }),
  c('status: staged rename', 'basic', 'git mv a.txt renamed.txt && git status && git status -s', { fresh: true }),
  c('status: mode change', 'basic', 'chmod +x a.txt && git status -s && git diff', { fresh: true }),

  // ---- add, rm, mv
  c('add: a file, then status', 'dirty', 'git add a.txt && git status -s', { fresh: true }),
  c('add: everything (-A)', 'dirty', 'git add -A && git status -s && git ls-files', { fresh: true }),
  c('add: dot from a subdirectory', 'dirty', 'cd newdir && git add . && git status -s', { fresh: true }),
  c('add: -u updates tracked files only', 'dirty', 'git add -u && git status -s', { fresh: true }),
  c('add: missing pathspec', 'dirty', 'git add nope.txt; echo "status=$?"; git status -s', { fresh: true }),
  c('add: nothing specified', 'dirty', 'git add; echo "status=$?"'),
  c('add: an ignored file', 'dirty', 'git add debug.log; echo "status=$?"; git add -f debug.log && git status -s', { fresh: true }),
  c('add: dry run', 'dirty', 'git add -n . && git status -s', { fresh: true }),
  c('add: glob pathspec', 'dirty', "git add '*.txt' && git status -s", { fresh: true }),
  c('rm: a clean file', 'basic', 'git rm a.txt && git status -s && ls', { fresh: true }),
  c('rm: --cached keeps the file', 'basic', 'git rm --cached a.txt && git status -s', { fresh: true }),
  c('rm: a directory needs -r', 'basic', 'git rm src; echo "status=$?"; git rm -r -q src && git status -s', { fresh: true }),
  c('rm: local modifications refused', 'dirty', 'git rm a.txt; echo "status=$?"; git rm -f a.txt && git status -s', { fresh: true }),
  c('rm: staged content refused', 'dirty', 'git rm staged.txt; echo "status=$?"', { fresh: true }),
  c('rm: unknown path', 'basic', 'git rm nope; echo "status=$?"'),
  c('mv: rename a file', 'basic', 'git mv a.txt b.txt && git status -s && git diff --cached --name-status', { fresh: true }),
  c('mv: into a directory', 'basic', 'git mv a.txt run.sh src/ && git status -s', { fresh: true }),
  c('mv: errors', 'basic', 'git mv nope x; echo "status=$?"; git mv a.txt link; echo "status=$?"'),

  // ---- commit
  c('commit: root commit summary', 'empty', 'printf "hello\\n" > h.txt && git add h.txt && git commit -m "first one"'),
  c('commit: -a with summary of changes', 'dirty', 'git commit -am "update everything"; git log --oneline', { fresh: true }),
  c('commit: nothing to commit', 'basic', 'git commit -m nothing; echo "status=$?"'),
  c('commit: nothing added, untracked present', 'dirty', 'git reset -q staged.txt && git checkout -q -- . && git commit -m x; echo "status=$?"', { fresh: true }),
  c('commit: changes not staged', 'dirty', 'git reset -q staged.txt && git commit -m x; echo "status=$?"', { fresh: true }),
  c('commit: empty repository', 'empty', 'git commit -m x; echo "status=$?"'),
  c('commit: --allow-empty', 'basic', 'tick; git commit --allow-empty -m "empty one" && git log --stat -1', { fresh: true }),
  c('commit: --amend', 'basic', 'tick; git commit --amend -m "amended message" && git log --oneline -3', { fresh: true }),
  c('commit: --amend keeps the message with --no-edit', 'basic', 'printf z > z && git add z && tick && git commit --amend --no-edit -q && git log --stat -1', { fresh: true }),
  c('commit: several -m paragraphs', 'basic', 'tick; git commit -q --allow-empty -m "subject" -m "body one" -m "body two" && git log -1 --format=%B', { fresh: true }),
  c('commit: message cleanup', 'basic', 'tick; git commit -q --allow-empty -m "  padded   " -m "" -m "trailing   " && git log -1 --format=%B | od -c', { fresh: true }),
  c('commit: -F from a file', 'basic', 'printf "from file\\n\\nwith body\\n" > .git/msg && tick && git commit -q --allow-empty -F .git/msg && git log -1 --format=%s/%b', { fresh: true }),
  c('commit: --author and --date', 'basic', 'tick; git commit -q --allow-empty -m x --author="Some One <one@example.com>" --date="2001-02-03T04:05:06+0100" && git log -1 --format="%an|%ae|%ad|%cn"', { fresh: true }),
  c('commit: author from config', 'empty', 'unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL; git config user.name "Cfg User" && git config user.email cfg@example.com && printf a > a && git add a && git commit -m cfg && git log --format="%an %ae %cn %ce"'),
  c('commit: paths only', 'dirty', 'git commit -q -m "only a" a.txt && git status -s && git log --stat -1 --format=%s', { fresh: true }),
  c('commit: unknown path', 'dirty', 'git commit -m x nope.txt; echo "status=$?"'),
  c('commit: signoff', 'basic', 'tick; git commit -q --allow-empty -s -m "signed" && git log -1 --format=%B', { fresh: true }),
  c('commit: detached HEAD', 'basic', 'git checkout -q HEAD~1 && printf d > d && git add d && tick && git commit -m "on detached"', { fresh: true }),

  // ---- log
  c('log: default format', 'basic', 'git log'),
  c('log: --oneline', 'basic', 'git log --oneline'),
  c('log: -n and -<n>', 'basic', 'git log -n 2 --oneline; git log -1 --oneline'),
  c('log: --format placeholders', 'basic', 'git log --format="%H %h %s %an %ae %ad|%cn %ce %cd|%T %t|%P %p"'),
  c('log: more placeholders', 'basic', 'git log --format="%at %ct %ai %aI %as %cs %aD %f%n%B%%" -2'),
  c('log: --pretty=format: separates', 'basic', 'git log --pretty=format:%s; echo "<end>"'),
  c('log: tformat terminates', 'basic', 'git log --format=tformat:%s'),
  c('log: --pretty=short, full, fuller, raw', 'basic', 'git log -1 --pretty=short; git log -1 --pretty=full; git log -1 --pretty=fuller; git log -1 --pretty=raw'),
  c('log: --date formats', 'basic', 'for d in iso iso-strict rfc short raw unix; do git log -1 --date=$d --format=%ad; done'),
  c('log: --all', 'basic', 'git log --all --oneline'),
  c('log: a branch and a range', 'basic', 'git log --oneline feature; git log --oneline master..feature; git log --oneline feature..master; git log --oneline ^master feature'),
  c('log: symmetric difference', 'basic', 'git log --oneline master...feature'),
  c('log: --reverse', 'basic', 'git log --reverse --oneline'),
  c('log: path limiting', 'basic', 'git log --oneline -- a.txt; git log --oneline -- src; git log --oneline feature -- src/lib'),
  c('log: --stat', 'basic', 'git log --stat'),
  c('log: -p', 'basic', 'git log -p -2'),
  c('log: -p --stat', 'basic', 'git log -p --stat -1'),
  c('log: --name-only and --name-status', 'basic', 'git log --name-only --oneline; git log --name-status --format=%s'),
  c('log: --author and --grep', 'basic', 'git log --oneline --grep=feature --all; git log --oneline --author=Thor -1; git log --oneline --grep=nomatch'),
  c('log: --skip and --max-count', 'basic', 'git log --oneline --skip=1 --max-count=2'),
  c('log: decorations', 'basic', 'git log --oneline --decorate --all; git log --format="%h%d" --all'),
  c('log: merges', 'clean', 'tick; git merge -q side -m "merge side" && git log --oneline && git log --first-parent --oneline && git log --merges --oneline && git log --no-merges --oneline', { fresh: true }),
  c('log: merge commit in the default format', 'clean', 'tick; git merge -q side -m "merge side" && git log -1', { fresh: true }),
  c('log: no commits yet', 'empty', 'git log; echo "status=$?"'),
  c('log: bad revision', 'basic', 'git log nope; echo "status=$?"'),
  c('log: -p with a binary, an executable and a symlink', 'basic', 'git log -p --format=%s master~2 -1'),

  // ---- diff
  c('diff: work tree against the index', 'dirty', 'git diff'),
  c('diff: --cached', 'dirty', 'git diff --cached; git diff --staged --stat'),
  c('diff: HEAD', 'dirty', 'git diff HEAD'),
  c('diff: --stat', 'dirty', 'git diff --stat'),
  c('diff: --name-only and --name-status', 'dirty', 'git diff --name-only; git diff --name-status; git diff --cached --name-status'),
  c('diff: --numstat and --shortstat', 'dirty', 'git diff --numstat; git diff --shortstat'),
  c('diff: two commits', 'basic', 'git diff v1 master; git diff master feature --stat'),
  c('diff: a range', 'basic', 'git diff v1..feature; git diff master...feature --name-only'),
  c('diff: paths', 'basic', 'git diff v1 feature -- src; git diff v1 feature --stat -- feature.txt'),
  c('diff: hunks with function context', 'text', 'git diff'),
  c('diff: -U1 and -U0', 'text', 'git diff -U1; git diff -U0 -- nums.txt'),
  c('diff: --exit-code and --quiet', 'dirty', 'git diff --quiet; echo "status=$?"; git diff --exit-code -- keep.txt; echo "status=$?"'),
  c('diff: binary, executable and symlink', 'basic', 'git diff v1~1 v1 --stat; git show master~2 --stat --format=%s; git diff 4b825dc642cb6eb9a060e54bf8d69288fbee4904 v1 --stat'),
  c('diff: new and deleted files', 'basic', 'git diff v1 feature -- feature.txt; git diff feature master -- feature.txt'),
  c('diff: renamed file', 'basic', 'git mv a.txt moved.txt && git diff --cached && git diff --cached --stat --summary', { fresh: true }),
  c('diff: no newline at end of file', 'empty', 'printf "a\\nb" > f && git add f && tick && git commit -qm f && printf "a\\nc" > f && git diff && printf "a\\nc\\n" > f && git diff'),
  c('diff: path with a space and a non-ASCII name', 'empty', 'printf "x\\n" > "sp ace" && printf "y\\n" > "caf\\303\\251" && git add . && git diff --cached && git diff --cached --stat && git status -s'),
  c('diff: -R', 'dirty', 'git diff -R'),
  c('diff: --no-index', 'none', 'printf "a\\nb\\nc\\n" > x && printf "a\\nB\\nc\\n" > y && git diff --no-index x y; echo "status=$?"'),
  c('diff: many changes, indent heuristic', 'empty', `printf 'a\\n{\\n  x\\n}\\n\\nb\\n{\\n  y\\n}\\n' > f && git add f && tick && git commit -qm f && printf 'a\\n{\\n  x\\n}\\n\\nnew\\n{\\n  z\\n}\\n\\nb\\n{\\n  y\\n}\\n' > f && git diff`),
  c('diff: a large rewrite', 'text', 'seq 100 160 > nums.txt && git diff --stat && git diff | head -30', { fresh: true }),

  // ---- show
  c('show: HEAD', 'basic', 'git show'),
  c('show: a commit by abbreviated id, --stat', 'basic', 'git show --stat $(git rev-parse --short HEAD~1)'),
  c('show: an annotated tag', 'basic', 'git show v2 --stat'),
  c('show: a lightweight tag, -s and --format', 'basic', 'git show -s --format="%h %s" v1'),
  c('show: a blob and a tree', 'basic', 'git show v1:a.txt; git show HEAD:src; git show HEAD^{tree}'),
  c('show: --name-only', 'basic', 'git show --name-only HEAD~1'),
  c('show: a merge commit', 'clean', 'tick; git merge -q side -m "merge side" && git show && git show --stat --format=%s', { fresh: true }),
  c('show: missing object', 'basic', 'git show nope; echo "status=$?"; git show HEAD:nope; echo "status=$?"'),

  // ---- branch
  c('branch: list', 'basic', 'git branch; git branch --list "f*"'),
  c('branch: -v', 'basic', 'git branch -v'),
  c('branch: create and list', 'basic', 'git branch topic && git branch topic2 v1 && git branch -v', { fresh: true }),
  c('branch: errors', 'basic', "git branch feature; echo \"status=$?\"; git branch 'bad..name'; echo \"status=$?\"; git branch x nope; echo \"status=$?\""),
  c('branch: delete', 'basic', 'git branch -d feature; echo "status=$?"; git branch -D feature && git branch', { fresh: true }),
  c('branch: delete merged, current, missing', 'basic', 'git branch old v1 && git branch -d old && git branch -d master; echo "status=$?"; git branch -d nope; echo "status=$?"', { fresh: true }),
  c('branch: rename', 'basic', 'git branch -m feature feat2 && git branch && git branch -m main && git branch && git status | head -1', { fresh: true }),
  c('branch: --show-current, --contains, --merged', 'basic', 'git branch --show-current; git branch --contains v1; git branch --merged master; git branch --no-merged'),
  c('branch: detached', 'basic', 'git checkout -q v1 && git branch', { fresh: true }),

  // ---- checkout, switch, restore
  c('checkout: a branch', 'basic', 'git checkout feature; git status -s; ls; git log --oneline -1', { fresh: true }),
  c('checkout: -b', 'basic', 'git checkout -b new && git branch && git checkout -b new; echo "status=$?"', { fresh: true }),
  c('checkout: already on', 'basic', 'git checkout master'),
  c('checkout: a commit (detached)', 'basic', 'git checkout v1 && git status | head -1 && git checkout master', { fresh: true }),
  c('checkout: local changes carried', 'dirty', 'git checkout -b side && git status -s', { fresh: true }),
  c('checkout: local changes in the way', 'basic', 'printf "local\\n" > src/lib/util.c && git checkout feature; echo "status=$?"; git status -s', { fresh: true }),
  c('checkout: -- file', 'dirty', 'git checkout -- a.txt && git status -s', { fresh: true }),
  c('checkout: <commit> -- file', 'basic', 'git checkout v1~1 -- a.txt && git status -s && cat a.txt', { fresh: true }),
  c('checkout: unknown pathspec', 'basic', 'git checkout nope; echo "status=$?"'),
  c('checkout: back with -', 'basic', 'git checkout -q feature && git checkout - && git branch --show-current', { fresh: true }),
  c('checkout: files appear and disappear', 'basic', 'git checkout -q feature && ls src src/lib && cat src/lib/util.c && git checkout -q master && ls src', { fresh: true }),
  c('switch: a branch and -c', 'basic', 'git switch feature && git switch -c topic && git branch', { fresh: true }),
  c('switch: errors', 'basic', 'git switch nope; echo "status=$?"; git switch v1; echo "status=$?"'),
  c('switch: --detach', 'basic', 'git switch --detach v1 && git status | head -1', { fresh: true }),
  c('restore: work tree', 'dirty', 'git restore a.txt sub && git status -s', { fresh: true }),
  c('restore: --staged', 'dirty', 'git restore --staged staged.txt && git status -s', { fresh: true }),
  c('restore: --source', 'basic', 'git restore --source=v1~1 a.txt && git status -s && git diff --stat', { fresh: true }),
  c('restore: unknown path', 'dirty', 'git restore nope; echo "status=$?"'),

  // ---- reset
  c('reset: --soft', 'basic', 'git reset --soft HEAD~1 && git status -s && git log --oneline -1', { fresh: true }),
  c('reset: --mixed', 'basic', 'git reset HEAD~1 && git status -s', { fresh: true }),
  c('reset: --hard', 'dirty', 'git reset --hard && git status -s', { fresh: true }),
  c('reset: --hard to an older commit', 'basic', 'git reset --hard v1~1 && git status && ls && cat a.txt', { fresh: true }),
  c('reset: a path', 'dirty', 'git reset staged.txt && git status -s', { fresh: true }),
  c('reset: ORIG_HEAD', 'basic', 'git reset -q --hard HEAD~2 && git reset --hard ORIG_HEAD && git log --oneline -1', { fresh: true }),

  // ---- merge
  c('merge: fast-forward', 'basic', 'git checkout -q -b ff v1 && git merge feature && git log --oneline', { fresh: true }),
  c('merge: already up to date', 'basic', 'git merge v1'),
  c('merge: a real merge', 'clean', 'tick; git merge side && git log --oneline && git status -s && cat f.txt', { fresh: true }),
  c('merge: message into another branch', 'clean', 'git checkout -q -b dev && tick && git merge side && git log -1 --format=%s', { fresh: true }),
  c('merge: --no-ff', 'basic', 'git checkout -q -b ff2 v1 && tick && git merge --no-ff feature -m "no ff" && git log --oneline', { fresh: true }),
  c('merge: --ff-only refused', 'clean', 'git merge --ff-only side; echo "status=$?"'),
  c('merge: conflict', 'conflict', 'tick; git merge other; echo "status=$?"; cat f.txt; git status; git status -s; git ls-files -s', { fresh: true }),
  c('merge: resolve and commit', 'conflict', 'tick; git merge other >/dev/null; printf "resolved\\n" > f.txt && git add f.txt && git commit -q --no-edit && git log --oneline && git log -1 --format=%B', { fresh: true }),
  c('merge: --abort', 'conflict', 'tick; git merge other >/dev/null; git merge --abort && git status', { fresh: true }),
  c('merge: not something we can merge', 'basic', 'git merge nope; echo "status=$?"'),
  c('merge: delete/modify conflict', 'conflict', 'git checkout -q other && git rm -q del.txt && tick && git commit -qm "del" && git checkout -q master && printf "mod\\n" > del.txt && tick && git commit -qam mod && git merge other; echo "status=$?"; git status -s', { fresh: true }),

  // ---- tag
  c('tag: list and -n', 'basic', 'git tag; git tag -n; git tag -l "v*"'),
  c('tag: create, exists, delete', 'basic', 'git tag v3 && git tag v3; echo "status=$?"; git tag -d v3 && git tag', { fresh: true }),
  c('tag: annotated', 'basic', 'tick; git tag -a v3 -m "three" HEAD~1 && git show v3 --format=%s -s && git rev-parse v3', { fresh: true }),

  // ---- config and remote
  c('config: set, get, list', 'basic', 'git config foo.bar baz && git config foo.bar && git config --local --list && cat .git/config', { fresh: true }),
  c('config: missing key and bad key', 'basic', 'git config nope.nope; echo "status=$?"; git config nosection; echo "status=$?"'),
  c('config: --global', 'basic', 'git config --global user.name "Glob Al" && git config user.name && cat ~/.gitconfig', { fresh: true }),
  c('config: multiple values', 'basic', 'git config --add m.v 1 && git config --add m.v 2 && git config --get-all m.v && git config m.v x; echo "status=$?"; git config --unset-all m.v && git config m.v; echo "status=$?"', { fresh: true }),
  c('config: --bool and --unset', 'basic', 'git config --bool core.bare && git config x.y yes && git config --bool x.y && git config --unset x.y && git config x.y; echo "status=$?"', { fresh: true }),
  c('remote: add, list, -v, get-url', 'basic', 'git remote add origin /some/where && git remote && git remote -v && git remote get-url origin && cat .git/config', { fresh: true }),
  c('remote: errors, rename, remove', 'basic', 'git remote add o /x && git remote add o /y; echo "status=$?"; git remote rename o p && git remote && git remote remove p && git remote; git remote remove zz; echo "status=$?"', { fresh: true }),

  // ---- rev-parse and ls-files
  c('rev-parse: revisions', 'basic', 'git rev-parse HEAD HEAD~1 HEAD^ v1 v2 v2^{} v2^{commit} HEAD:a.txt HEAD^{tree} master~2'),
  c('rev-parse: --short, --abbrev-ref, --verify', 'basic', 'git rev-parse --short HEAD; git rev-parse --abbrev-ref HEAD; git rev-parse --symbolic-full-name HEAD; git rev-parse --verify -q nope; echo "status=$?"; git rev-parse --verify HEAD'),
  c('rev-parse: unknown revision', 'basic', 'git rev-parse nope; echo "status=$?"'),
  c('ls-files: default and -s', 'basic', 'git ls-files; git ls-files -s'),
  c('ls-files: modified, deleted, others', 'dirty', 'git ls-files -m; git ls-files -d; git ls-files -o --exclude-standard; git ls-files -o --exclude-standard --directory'),
  c('ls-files: in a subdirectory', 'basic', 'cd src && git ls-files && git ls-files --full-name'),

  // ---- clone from a path
  c('clone: a local repository', 'basic', 'src=$PWD && mkdir ../clone-a && cd ../clone-a && git clone "$src" copy && cd copy && git status && git branch -a && git log --oneline && git remote -v && git config --get-regexp "^(remote|branch)"', { fresh: true }),
  c('clone: then work and track', 'basic', 'src=$PWD && mkdir ../clone-b && cd ../clone-b && git clone -q "$src" copy && cd copy && printf n > n && git add n && tick && git commit -qm n && git status -sb && git branch -vv && git log --oneline -2', { fresh: true }),
  c('clone: missing source', 'none', 'git clone /nonexistent/repo x; echo "status=$?"'),

  // ---- ignores
  c('ignore: negation, directories, anchors, **', 'empty', `printf '*.tmp\\n!keep.tmp\\n/top.txt\\nlogs/\\n**/gen/*.js\\n' > .gitignore && mkdir -p a/gen logs sub && printf x > a.tmp && printf x > keep.tmp && printf x > top.txt && printf x > sub/top.txt && printf x > logs/l && printf x > a/gen/x.js && printf x > a/gen/x.ts && git status -s --ignored -uall && git add . && git status -s`),
  c('ignore: nested .gitignore and info/exclude', 'empty', `mkdir -p d/e && printf 'e/\\n' > d/.gitignore && printf x > d/e/f && printf x > d/g && printf 'd/g\\n' >> .git/info/exclude && printf x > h && git status -s --ignored && git ls-files -o && git ls-files -o --exclude-standard && git ls-files -o -i --exclude-standard`),
  c('ignore: a tracked file stays tracked', 'basic', `printf 'a.txt\\n' > .gitignore && printf more >> a.txt && git status -s && git add a.txt && git status -s`, { fresh: true }),

  // ---- status, more states
  c('status: rename then modify', 'basic', `git mv a.txt b.txt && printf 'x\\n' >> b.txt && git status -s && git status`, { fresh: true }),
  c('status: deleted in the index, file still there', 'basic', `git rm -q --cached a.txt && git status -s && git status`, { fresh: true }),
  c('status: type change', 'basic', `rm a.txt && ln -s run.sh a.txt && git status -s && git status && git diff --stat && git add a.txt && git status -s && git diff --cached --name-status`, { fresh: true }),
  c('status: nested repository', 'basic', `mkdir inner && cd inner && git init -q && printf x > y && cd .. && git status -s`, { fresh: true }),
  c('status: added then removed from disk', 'basic', `printf n > new.txt && git add new.txt && rm new.txt && git status -s && git status`, { fresh: true }),
  c('status: file becomes a directory', 'basic', `rm a.txt && mkdir a.txt && printf x > a.txt/inner && git status -s`, { fresh: true }),
  c('status: upstream ahead, behind, diverged', 'basic', `src=$PWD && mkdir ../up && cd ../up && git clone -q "$src" c && cd c && git status -sb | head -1 && printf x > x && git add x && tick && git commit -qm x && git status | head -3 && git reset -q --hard HEAD~2 && git status | head -3 && printf y > y && git add y && tick && git commit -qm y && git status | head -4 && git branch -vv`, { fresh: true }),

  // ---- diff, more shapes
  c('diff: mode and content change together', 'basic', `chmod +x a.txt && printf 'x\\n' >> a.txt && git diff && git diff --stat --summary`, { fresh: true }),
  c('diff: long names in --stat', 'empty', `mkdir -p very/long/directory/name/for/testing/the/stat/width && printf '1\\n' > very/long/directory/name/for/testing/the/stat/width/and-a-long-file-name.txt && printf '1\\n2\\n' > short && git add . && git diff --cached --stat && git diff --cached --stat=60 && git diff --cached --numstat`),
  c('diff: many lines in --stat', 'empty', `seq 1 200 > big && printf 'a\\n' > small && git add . && tick && git commit -qm x && seq 50 300 > big && printf 'b\\n' > small && git diff --stat && git diff --shortstat`),
  c('diff: a text file turns binary', 'basic', `printf 'a\\000b' > a.txt && git diff && git diff --stat && git diff --numstat`, { fresh: true }),
  c('diff: CRLF lines', 'empty', `printf 'a\\r\\nb\\r\\n' > f && git add f && tick && git commit -qm f && printf 'a\\r\\nc\\r\\n' > f && git diff | od -c | head -20`),
  c('diff: several hunks and function names', 'text', `seq 1 100 > nums.txt && git add nums.txt && tick && git commit -qm n && sed -i '10s/.*/ten/; 50s/.*/fifty/; 51s/.*/fifty-one/; 90d' nums.txt && git diff nums.txt && git diff -U1 nums.txt`, { fresh: true }),
  c('diff: function context follows the hunks', 'empty', `printf 'void f(void)\\n{\\n\\tint a;\\n\\tint b;\\n\\tint c;\\n\\tint d;\\n\\tint e;\\n}\\n\\nvoid g(void)\\n{\\n\\tint a;\\n\\tint b;\\n\\tint c;\\n\\tint d;\\n}\\n' > c.c && git add c.c && tick && git commit -qm c && sed -i 's/int e;/int ee;/; s/int d;/int dd;/' c.c && git diff`),
  c('diff: renames with directories in --stat', 'basic', `git mv src/lib src/library && git mv a.txt src/a.txt && git diff --cached --stat && git diff --cached --summary && git diff --cached -M --name-status`, { fresh: true }),
  c('diff: commit against the work tree, with a path', 'dirty', `git diff HEAD -- a.txt sub; git diff HEAD --stat`),
  c('diff: pathspec from a subdirectory', 'dirty', `cd sub && git diff && git diff --stat . && git diff --name-only`),
  c('diff: --name-status with deletions and additions', 'basic', `git diff --name-status v1 feature; git diff --name-status feature v1`),
  c('diff: an empty file added', 'basic', `: > empty.txt && git add empty.txt && git diff --cached && git diff --cached --stat`, { fresh: true }),

  // ---- log and show, more
  c('log: -p across a rename', 'basic', `git mv a.txt b.txt && tick && git commit -qm mv && git log -p -1 && git log --stat -1 --format=%s && git log --name-status -1 --format=%s`, { fresh: true }),
  c('log: %d with remotes after a clone', 'basic', `src=$PWD && mkdir ../dec && cd ../dec && git clone -q "$src" c && cd c && git log --format="%h%d" --all && git log --oneline --decorate -3`, { fresh: true }),
  c('log: --format with %n, %x09 and %+b', 'basic', `tick; git commit -q --allow-empty -m 'subj' -m 'body' && git log -2 --format='%s%x09%h%n%+b---'`, { fresh: true }),
  c('log: a path in a subdirectory', 'basic', `cd src && git log --oneline -- . && git log --oneline -- lib/util.c ../a.txt`),
  c('log: -- a deleted path', 'basic', `git log --oneline -- src/main.c && git log --stat --format=%s -- src/main.c`),
  c('log: range with a path', 'basic', `git log --oneline v1..feature -- src`),
  c('show: the root commit', 'basic', `git show --stat v1~1 && git show --format=%s --name-only v1~1`),
  c('show: a binary file and a symlink', 'basic', `git show HEAD:bin.dat | od -c && git show HEAD:link && echo && git show HEAD:run.sh`),
  c('show: an index path', 'dirty', `git show :staged.txt && git show :a.txt`),
  c('show: -s --format=%B and --oneline', 'basic', `git show -s --format=%B HEAD~1 && git show --oneline -s v2`),
  c('show: rev:./path in a subdirectory', 'basic', `cd src/lib && git show HEAD:./util.c && git show feature:./util.c`),

  // ---- commit, more
  c('commit: --amend the root commit', 'empty', `printf a > a && git add a && git commit -qm root && printf b > b && git add b && tick && git commit --amend -m 'new root' && git log --stat --format=%s`),
  c('commit: -a with a deletion', 'basic', `rm a.txt && git commit -qam 'rm a' && git status -s && git log --stat -1 --format=%s`, { fresh: true }),
  c('commit: reset --soft then commit', 'basic', `git reset --soft HEAD~2 && tick && git commit -qm squashed && git log --oneline && git show --stat --format=%s`, { fresh: true }),
  c('commit: a path with staged others', 'dirty', `git commit -qm 'just sub' sub && git status -s && git show --stat --format=%s`, { fresh: true }),
  c('commit: after a merge conflict, without resolving', 'conflict', `tick; git merge other >/dev/null; git commit -m x; echo "status=$?"`, { fresh: true }),
  c('commit: identity from GIT_* and config mixed', 'empty', `unset GIT_COMMITTER_NAME; git config user.name 'Conf Name' && printf a > a && git add a && git commit -q -m a && git log --format='%an <%ae> / %cn <%ce>'`),

  // ---- checkout and switch, more
  c('checkout: untracked file in the way', 'basic', `printf x > feature.txt && git checkout feature; echo "status=$?"`, { fresh: true }),
  c('checkout: a remote branch after a clone', 'basic', `src=$PWD && mkdir ../rb && cd ../rb && git clone -q "$src" c && cd c && git checkout feature && git branch -vv && git status | head -3`, { fresh: true }),
  c('checkout: . restores everything', 'dirty', `git checkout . && git status -s`, { fresh: true }),
  c('checkout: a path from a subdirectory', 'dirty', `cd sub && git checkout inner.txt && cd .. && git status -s`, { fresh: true }),
  c('checkout: -B resets a branch', 'basic', `git checkout -B feature v1 && git log --oneline -1 && git branch -v`, { fresh: true }),
  c('checkout: a deleted file comes back', 'dirty', `git checkout gone.txt && git status -s && cat gone.txt`, { fresh: true }),
  c('switch: carry a staged change', 'dirty', `git switch -c carry && git status -s`, { fresh: true }),
  c('switch: - and previous branch', 'basic', `git switch -q feature && git switch -q master && git switch - && git switch -`, { fresh: true }),

  // ---- reset, more
  c('reset: --hard in a detached HEAD', 'basic', `git checkout -q v1 && git reset --hard HEAD~1 && git status | head -1 && git log --oneline -1`, { fresh: true }),
  c('reset: paths from a commit', 'basic', `git reset -q v1~1 -- a.txt && git status -s && git diff --cached`, { fresh: true }),
  c('reset: a merge in progress', 'conflict', `tick; git merge other >/dev/null; git reset --hard -q && git status`, { fresh: true }),
  c('reset: unborn branch', 'empty', `printf a > a && git add a && git reset && git status -s`),

  // ---- merge, more
  c('merge: add/add conflict', 'clean', `git checkout -q -b two master~1 && printf 'mine\\n' > s.txt && git add s.txt && tick && git commit -qm two && git merge side; echo "status=$?"; cat s.txt; git status -s`, { fresh: true }),
  c('merge: identical changes on both sides', 'clean', `git checkout -q -b same master~1 && printf '1\\n2\\n3\\n4\\n5\\n6\\n7\\n8 side\\n' > f.txt && tick && git commit -qam same && tick && git merge side && cat f.txt`, { fresh: true }),
  c('merge: local changes in the way', 'clean', `printf 'local\\n' >> f.txt && git merge side; echo "status=$?"; git status -s`, { fresh: true }),
  c('merge: local changes elsewhere are kept', 'clean', `printf x > untracked && tick && git merge -q side -m m && git status -s && git log --oneline -1`, { fresh: true }),
  c('merge: conflict without a final newline', 'empty', `printf 'a\\nb' > f && git add f && tick && git commit -qm a && git checkout -qb o && printf 'a\\nc' > f && tick && git commit -qam c && git checkout -q master && printf 'a\\nd' > f && tick && git commit -qam d && git merge o; cat f`),
  c('merge: then log and show', 'clean', `tick; git merge -q side -m 'merged' && git log --oneline --all && git log --format='%h %p %s' && git show --stat -s && git show --name-only --format=%s`, { fresh: true }),
  c('merge: --no-commit', 'clean', `tick; git merge --no-commit side; echo "status=$?"; git status -s; cat .git/MERGE_MSG; tick; git commit -q --no-edit && git log --oneline -1`, { fresh: true }),

  // ---- branch, tag, config, more
  c('branch: -a and -r after a clone', 'basic', `src=$PWD && mkdir ../br && cd ../br && git clone -q "$src" c && cd c && git branch -a && git branch -r && git branch -vv`, { fresh: true }),
  c('branch: copy and force', 'basic', `git branch -c feature f2 && git branch -f f2 v1 && git branch -v && git branch -M f2 f3 && git branch`, { fresh: true }),
  c('tag: -n with several lines and -l patterns', 'basic', `tick; git tag -a v3 -m 'line one' -m 'line two' && git tag -n3 && git tag -l 'v[12]' && git tag --contains v1`, { fresh: true }),
  c('config: quoting and listing', 'basic', `git config a.b 'with spaces  ' && git config a.c 'has # hash' && git config 'sec.sub sect.key' v && git config --get a.b | od -c | head -2 && git config --get-regexp '^a\\.' && cat .git/config`, { fresh: true }),
  c('config: sections', 'basic', `git config s.one 1 && git config s.two 2 && git config --rename-section s t && git config --list --local && git config --remove-section t && git config --list --local`, { fresh: true }),
  c('config: int and bool values', 'basic', `git config n.k 2k && git config --int n.k && git config b.t on && git config --bool b.t && git config --type=bool b.t`, { fresh: true }),

  // ---- rm, mv, rev-parse, ls-files, more
  c('rm: a glob and -n', 'basic', `git rm -n 'src/*' && git rm -r -q --cached src && git status -s`, { fresh: true }),
  c('mv: a directory', 'basic', `git mv src source && git status -s && ls source`, { fresh: true }),
  c('mv: -f over an existing file', 'basic', `git mv -f a.txt run.sh && git status -s && cat run.sh`, { fresh: true }),
  c('rev-parse: more forms', 'basic', `git rev-parse @ HEAD~2 master^ v2^0 feature~1^ && git rev-parse $(git rev-parse --short=5 HEAD) && git rev-parse :a.txt && git rev-parse HEAD^{tree}:src/lib`),
  c('rev-parse: in the .git directory', 'basic', `cd .git && git rev-parse --is-inside-git-dir --is-inside-work-tree --is-bare-repository`),
  c('ls-files: unmerged entries', 'conflict', `tick; git merge other >/dev/null; git ls-files -u && git ls-files -s f.txt && git ls-files`, { fresh: true }),
  c('ls-files: a pathspec with a glob and --error-unmatch', 'basic', `git ls-files 'src/*' && git ls-files --error-unmatch nope; echo "status=$?"`),

  // ---- clone, more
  c('clone: bare, and a branch', 'basic', `src=$PWD && mkdir ../cb && cd ../cb && git clone -q --bare "$src" bare.git && git -C bare.git branch && git -C bare.git log --oneline -2 && git clone -q -b feature "$src" f && git -C f status -sb && git -C f log --oneline -1`, { fresh: true }),
  c('fetch and pull from a local remote', 'basic', `src=$PWD && mkdir ../fp && cd ../fp && git clone -q "$src" c && cd "$src" && tick && printf z > z && git add z && git commit -qm more && git branch newb && git tag v9 && cd ../fp/c && git fetch && git fetch && git status -sb | head -1 && git branch -a && git pull && git log --oneline -2 && git status -sb | head -1`, { fresh: true }),
  c('push to a bare repository', 'basic', `git clone -q --bare . ../pb.git && git remote add pb ../pb.git && tick && git commit -q --allow-empty -m one && git push pb master && git push pb && git push pb feature:topic && git -C ../pb.git branch -v && git push -u pb master; git branch -vv | head -2; git reset -q --hard HEAD~2 && git push pb master; echo "status=$?"`, { fresh: true }),
  c('push to a checked-out branch is refused', 'basic', `src=$PWD && mkdir ../pc && cd ../pc && git clone -q "$src" c && cd c && tick && git commit -q --allow-empty -m x && git push origin master 2>&1 | grep -v '^remote:' ; git push origin master:other && git -C "$src" branch`, { fresh: true, stderr: 'ignore', why: 'the push itself is compared on stdout; the second push\'s stderr names a temporary path' }),
  c('fetch: no such remote', 'basic', `git fetch nope; echo "status=$?"; git pull; echo "status=$?"`),
  c('commit: the editor writes the message', 'basic', `GIT_EDITOR=true git commit --allow-empty; echo "status=$?"; tick; GIT_EDITOR="sed -i 1s/^/edited/" git commit -q --allow-empty && git log -1 --format=%B`, { fresh: true }),
  c('diff: during a conflict', 'conflict', `tick; git merge other >/dev/null; git diff; git diff --stat`, { fresh: true }),
  c('status: an edited rename', 'basic', `git mv a.txt b.txt && printf 'line5\\n' >> b.txt && git add b.txt && git status -s`, { fresh: true }),
  c('diff: an edited rename', 'basic', `git mv src/main.c src/app.c && printf '// more\\n' >> src/app.c && git add src/app.c && git diff --cached && git diff --cached --stat --summary && git diff --cached --name-status && tick && git commit -m 'rename and edit' && git log --stat -1 --format=%s`, { fresh: true }),
  c('diff: renames need enough similarity', 'basic', `git mv a.txt b.txt && printf 'all\\nnew\\ncontent\\nhere\\n' > b.txt && git add b.txt && git status -s && git diff --cached --stat`, { fresh: true }),
  c('log: --graph', 'basic', `git log --graph --oneline --all`),
  c('log: format: with a diff, with and without the graph', 'basic', 'git log --format=format:%s --name-status; echo "<end>"; git log --graph --format=format:%s --stat -3; echo "<end>"'),
  c('log: --graph after a merge, every format', 'clean', 'tick; git merge -q side -m "merge side" && git log --graph --oneline && git log --graph && git log --graph --format=%s%n && git log --graph --name-status --format=%s', { fresh: true }),
  c('merge: a renamed file', 'clean', `git checkout -q side && git mv f.txt g.txt && tick && git commit -qm mv && git checkout -q master && tick && git merge side; echo "status=$?"; git status -s`, { fresh: true }),
  c('clone: an empty repository', 'empty', `src=$PWD && cd .. && mkdir ce && cd ce && git clone "$src/" copy; echo "status=$?"; git -C copy status`),

  // ---- everyday commands beyond the basics (issue 16)
  c('cat-file: -t -s -p -e', 'basic', `git cat-file -t HEAD && git cat-file -s HEAD && git cat-file -p HEAD && git cat-file -t v2 && git cat-file -p v2 && git cat-file -p HEAD^{tree} && git cat-file -p HEAD:a.txt && git cat-file -e HEAD && echo exists; git cat-file -e 0123456789012345678901234567890123456789; echo "status=$?"`),
  c('cat-file: a blob by type and a bad name', 'basic', `git cat-file blob HEAD:a.txt && git cat-file -s HEAD:bin.dat && git cat-file -t nope; echo "status=$?"`),
  c('ls-tree: a commit, -r, --name-only, -t', 'basic', `git ls-tree HEAD && git ls-tree -r --name-only feature && git ls-tree -r -t HEAD && git ls-tree HEAD src/`),
  c('rev-list: ranges, --count, --reverse, -n', 'basic', `git rev-list HEAD && git rev-list --count --all && git rev-list v1..feature && git rev-list --reverse -n 2 HEAD && git rev-list --all --max-count=3`),
  c('show-ref: all, --tags, --heads -s, --verify', 'basic', `git show-ref && git show-ref --tags && git show-ref --heads -s && git show-ref --verify refs/heads/feature && git show-ref nope; echo "status=$?"`),
  c('ls-remote: a local repository', 'basic', `git ls-remote . && git ls-remote --tags . && git ls-remote --heads .`),
  c('reflog: HEAD and a branch', 'basic', `git reflog && git reflog show feature && git log -g --oneline -3`),
  c('describe: --tags, --always, --dirty', 'basic', `git describe; git describe --tags && git describe --tags feature && git describe --always feature~1 && git describe --long v2 && printf x >> a.txt && git describe --dirty && git describe --tags --dirty=-mod`, { fresh: true }),
  c('describe: nothing to describe', 'empty', `printf a > a && git add a && git commit -qm a && git describe; echo "status=$?"; git describe --always | wc -c`),
  c('shortlog: summary, numbered, e-mail', 'basic', `git shortlog HEAD && git shortlog -sn --all && git shortlog -se HEAD`),
  c('grep: -n -i -c -l, a revision, no match', 'basic', `git grep line && git grep -n -i LINE && git grep -c lib feature && git grep -l e && git grep -e line1 --or -e lib && git grep -w line; git grep nomatch; echo "status=$?"`),
  c('grep: a pathspec and untracked files', 'dirty', `git grep -n e -- sub && git grep --untracked untr && git grep -h one`),
  c('clean: -n, -d, -x, -f', 'dirty', `git clean; echo "status=$?"; git clean -n && git clean -n -d && git clean -n -x -d && git clean -f && git status -s && git clean -fdx && git status -s --ignored`, { fresh: true }),
  c('apply: --check, --stat, -R, --index', 'text', `git diff > ../p.patch && git checkout -q . && git apply --check ../p.patch && git apply --stat ../p.patch && git apply --numstat ../p.patch && git apply ../p.patch && git status -s && git apply -R ../p.patch && git status -s && git apply --index ../p.patch && git status -s`, { fresh: true }),
  c('apply: a patch that does not apply', 'text', `git diff > ../q.patch && git commit -qam x && git apply --check ../q.patch; echo "status=$?"; git apply ../q.patch; echo "status=$?"; git status -s`, { fresh: true }),
  c('apply: --3way', 'clean', `git diff master side -- f.txt > ../r.patch && printf '1 master\\n2\\n3\\n4\\n5\\n6\\n7\\n8\\n' > f.txt && git commit -qam m && git apply --3way ../r.patch; echo "status=$?"; git status -s; cat f.txt`, { fresh: true }),
  c('stash: push, list, show, pop', 'dirty', `git stash && git stash list && git status -s && git stash show && git stash show -p && git stash pop && git status -s`, { fresh: true }),
  c('stash: -m, a path, apply, drop, -u', 'dirty', `tick; git stash push -m 'only a' a.txt && git stash list && git status -s && tick && git stash -u && git stash list && git status -s && git stash apply stash@{1} && git stash drop && git stash list && git status -s`, { fresh: true }),
  c('stash: nothing to stash, and a conflict on pop', 'basic', `git stash; echo "status=$?"; printf 'x\\n' >> a.txt && tick && git stash -q && printf 'y\\n' >> a.txt && git commit -qam y && git stash pop; echo "status=$?"; git status -s; git stash list`, { fresh: true }),
  c('revert: a commit', 'basic', `tick; git revert --no-edit HEAD && git log --oneline -3 && git show --stat --format=%B && git status -s`, { fresh: true }),
  c('revert: a conflict, then --abort', 'basic', `printf 'line1\\nline2 again\\nline3\\nline4\\n' > a.txt && tick && git commit -qam again && git revert --no-edit v1; echo "status=$?"; git status -s; git revert --abort; git status -s; git log --oneline -1`, { fresh: true }),
  c('cherry-pick: one commit and -x', 'basic', `tick; git cherry-pick feature && git log --oneline -2 && tick && git cherry-pick -x feature~1 && git log -1 --format=%B && git status -s`, { fresh: true }),
  c('cherry-pick: a conflict, --continue', 'clean', `printf '1\\n2\\n3\\n4\\n5\\n6\\n7\\n8 master\\n' > f.txt && tick && git commit -qam m && git cherry-pick side; echo "status=$?"; git status; cat f.txt; printf 'resolved\\n' > f.txt && git add f.txt && tick && GIT_EDITOR=true git cherry-pick --continue && git log --oneline -2`, { fresh: true }),
  c('rebase: onto master', 'basic', `git checkout -q feature && tick && git rebase master && git log --oneline && git status -s && git reflog -4`, { fresh: true }),
  c('rebase: a conflict, --abort and --skip', 'clean', `printf '1\\n2\\n3\\n4\\n5\\n6\\n7\\n8 master\\n' > f.txt && tick && git commit -qam m && git checkout -q side && tick && git rebase master; echo "status=$?"; git status; git rebase --abort && git log --oneline -1 && tick && git rebase master; git rebase --skip; echo "status=$?"; git log --oneline`, { fresh: true }),
  c('blame: default, -L, --porcelain', 'basic', `git blame a.txt && git blame -L 2,3 a.txt && git blame --porcelain a.txt && git blame -s feature -- src/lib/util.c`),
  c('bisect: good, bad, log, reset', 'basic', `git bisect start && git bisect bad && git bisect good v1~1 && git bisect bad && git bisect log && git bisect reset && git status | head -1`, { fresh: true }),
  c('bisect: run', 'basic', `git checkout -q feature && git bisect start HEAD v1~1 && git bisect run sh -c 'test ! -f feature.txt'; echo "status=$?"; git bisect reset`, { fresh: true }),
  c('worktree: add, list, remove', 'basic', `git worktree add ../wt-a feature && git worktree list && git -C ../wt-a status -s && git -C ../wt-a log --oneline -1 && git worktree add -q -b nb ../wt-b && git worktree list --porcelain && git branch && git worktree remove ../wt-b && git worktree list && git checkout feature; echo "status=$?"`, { fresh: true }),
  c('archive: tar byte for byte, a prefix and a path', 'basic', `git archive HEAD | tar tf - && git archive --format=tar HEAD | md5sum && git archive --prefix=p/ v1 src | md5sum && git archive --format=tar.gz HEAD | gzip -dc | md5sum`),
  c('everyday commands on non-ASCII names and text under C.UTF-8', 'empty', `export LANG=C.UTF-8 LC_ALL=C.UTF-8; printf 'été\\nÜber\\nnaïve\\n' > día.txt && git add . && tick && git commit -qm 'día: ünïcödé' && git grep -n 'été' && git grep -c 'Ü' && git grep -o 'ï.' && printf 'más\\n' >> día.txt && tick && git stash -q && git stash list && git status -s && git stash pop -q && git status -s && git stash -q && git stash show && git blame -s día.txt && git shortlog -s HEAD && git ls-tree HEAD && git ls-tree --name-only -z HEAD | od -c | head -2 && git archive HEAD | md5sum && git describe --always && git rev-list --format=%s HEAD`),
  // unzip -qq: agentOS unzip does not print an archive's comment (git's is the commit id), so the bytes are compared instead.
  c('archive: zip', 'basic', `git archive --format=zip -0 HEAD | md5sum && git archive --format=zip -o ../a.zip HEAD && unzip -qql ../a.zip && unzip -p ../a.zip src/lib/util.c a.txt`),
];
