# git: tags, describe, diff between tags, archive listing, rev-list counts.
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME="Ada Lovelace" GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME="Ada Lovelace" GIT_COMMITTER_EMAIL=ada@example.com
export GIT_AUTHOR_DATE="2024-01-02T03:04:05Z" GIT_COMMITTER_DATE="2024-01-02T03:04:05Z"
git init -q -b main repo && cd repo
for v in 1 2 3; do
  echo "version $v" > VERSION
  git add VERSION && git commit -q -m "release $v"
  git tag "v$v"
done
git tag | cat
git describe --tags HEAD~1
git rev-list --count HEAD
git diff --name-status v1 v3 | cat
git show v2:VERSION
git archive --format=tar HEAD | tar tf -
