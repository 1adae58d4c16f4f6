# Persistence across invocations: files last, but variables, functions, options, aliases and the cwd do not.
export TOKEN=abc
greet() { echo "hi $1"; }
set -o pipefail
mkdir -p sub && cd sub && pwd | sed 's|.*/||'
echo "export TOKEN=from-file" > ../env.sh
greet there
#--- next invocation ---
echo "TOKEN=${TOKEN-unset}"
type greet 2>/dev/null || echo "greet: not defined"
case :$SHELLOPTS: in *:pipefail:*) echo pipefail on;; *) echo pipefail off;; esac
pwd | sed 's|.*/||'
. ./env.sh && echo "TOKEN=$TOKEN"
