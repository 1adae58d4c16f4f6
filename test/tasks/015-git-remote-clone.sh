# git: a bare remote, clone, push and pull between two working copies.
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME="Ada Lovelace" GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME="Ada Lovelace" GIT_COMMITTER_EMAIL=ada@example.com
export GIT_AUTHOR_DATE="2024-01-02T03:04:05Z" GIT_COMMITTER_DATE="2024-01-02T03:04:05Z"
git init -q --bare -b main remote.git
git clone -q remote.git alice 2>/dev/null
cd alice && echo one > f && git add f && git commit -q -m one && git push -q origin main 2>/dev/null && cd ..
git clone -q remote.git bob
cd bob && cat f && echo two >> f && git commit -q -am two && git push -q origin main 2>/dev/null && cd ..
cd alice && git pull -q origin main 2>/dev/null && cat f && git log --format='%h %s' | cat
