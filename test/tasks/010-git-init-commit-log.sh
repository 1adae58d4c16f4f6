# git: init, commit, log with fixed author and dates so hashes match bash.
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME="Ada Lovelace" GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME="Ada Lovelace" GIT_COMMITTER_EMAIL=ada@example.com
export GIT_AUTHOR_DATE="2024-01-02T03:04:05Z" GIT_COMMITTER_DATE="2024-01-02T03:04:05Z"
git init -q -b main repo
cd repo
printf 'hello\n' > README.md
git add README.md
git commit -q -m "first commit"
printf 'world\n' >> README.md
git commit -q -am "second commit"
git log --format='%H %an %s'
git rev-parse HEAD^{tree}
git show --stat --format='%s' HEAD | cat
git status --short
