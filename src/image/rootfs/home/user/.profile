# ~/.profile: the user's login shell settings, read after /etc/profile.

# Private bin directories go first on PATH when they exist.
if [ -d "$HOME/bin" ]; then
  PATH="$HOME/bin:$PATH"
fi
if [ -d "$HOME/.local/bin" ]; then
  PATH="$HOME/.local/bin:$PATH"
fi
