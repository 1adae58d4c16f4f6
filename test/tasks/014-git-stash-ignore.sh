# git: stash, reset, restore and a .gitignore.
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME="Ada Lovelace" GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME="Ada Lovelace" GIT_COMMITTER_EMAIL=ada@example.com
export GIT_AUTHOR_DATE="2024-01-02T03:04:05Z" GIT_COMMITTER_DATE="2024-01-02T03:04:05Z"
git init -q -b main repo && cd repo
printf '*.log\nbuild/\n' > .gitignore
echo v1 > app.txt
git add -A && git commit -q -m init
echo v2 > app.txt; echo noise > debug.log; mkdir build; echo x > build/out
git status --short | cat
git stash -q
cat app.txt
git stash pop -q
cat app.txt
git add app.txt && git reset -q app.txt && git status --short | cat
git checkout -- app.txt && cat app.txt
git ls-files | cat
git clean -n | cat
