# git: a merge conflict, resolved by hand, then diff and blame-like queries.
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME="Ada Lovelace" GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME="Ada Lovelace" GIT_COMMITTER_EMAIL=ada@example.com
export GIT_AUTHOR_DATE="2024-01-02T03:04:05Z" GIT_COMMITTER_DATE="2024-01-02T03:04:05Z"
git init -q -b main repo && cd repo
printf 'a\nb\nc\n' > f.txt && git add f.txt && git commit -q -m base
git checkout -q -b left && sed -i 's/b/LEFT/' f.txt && git commit -q -am left
git checkout -q main && sed -i 's/b/MAIN/' f.txt && git commit -q -am main
git merge left >/dev/null 2>&1; echo "merge status $?"
cat f.txt
git status --short
printf 'a\nBOTH\nc\n' > f.txt
git add f.txt && git commit -q -m "merge left"
git log --format='%s' | cat
git diff HEAD~1 HEAD | cat
