# Persistence across invocations: a git project begun in one call, changed in the next, reviewed in a third.
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME="Ada Lovelace" GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME="Ada Lovelace" GIT_COMMITTER_EMAIL=ada@example.com
export GIT_AUTHOR_DATE="2024-03-04T05:06:07Z" GIT_COMMITTER_DATE="2024-03-04T05:06:07Z"
git init -q -b main app
cd app
mkdir -p src
printf 'def add(a, b):\n    return a + b\n' > src/calc.py
printf '__pycache__/\n' > .gitignore
git add -A && git commit -q -m "calc: add"
git rev-parse --short HEAD
#--- next invocation ---
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME="Ada Lovelace" GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME="Ada Lovelace" GIT_COMMITTER_EMAIL=ada@example.com
export GIT_AUTHOR_DATE="2024-03-05T05:06:07Z" GIT_COMMITTER_DATE="2024-03-05T05:06:07Z"
cd app
git status --short
printf 'def sub(a, b):\n    return a - b\n' >> src/calc.py
python3 -c 'import sys; sys.path.insert(0, "src"); import calc; print(calc.add(2, 3), calc.sub(2, 3))'
git status --short
git diff --stat | cat
git commit -q -am "calc: sub"
#--- next invocation ---
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
cd app
git log --format='%h %ad %s' --date=short
git status --short --ignored
ls -A src
