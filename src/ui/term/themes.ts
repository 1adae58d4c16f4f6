// Terminal colour schemes for the light and dark themes (xterm ITheme).

import type { ITheme } from '@xterm/xterm';

export type ThemeName = 'light' | 'dark';

export const THEMES: Record<ThemeName, ITheme> = {
  dark: {
    background: '#16181d', foreground: '#d8dee9', cursor: '#f0c674', cursorAccent: '#16181d',
    selectionBackground: '#3b4252',
    black: '#1d1f21', red: '#e06c75', green: '#98c379', yellow: '#e5c07b', blue: '#61afef', magenta: '#c678dd', cyan: '#56b6c2', white: '#d8dee9',
    brightBlack: '#5c6370', brightRed: '#ff7b86', brightGreen: '#b5e890', brightYellow: '#ffd68a', brightBlue: '#82c4ff', brightMagenta: '#de9bf0', brightCyan: '#7fd4de', brightWhite: '#ffffff',
  },
  light: {
    background: '#fbfbf8', foreground: '#2e3440', cursor: '#b58900', cursorAccent: '#fbfbf8',
    selectionBackground: '#c8d3e6',
    black: '#2e3440', red: '#c62828', green: '#2e7d32', yellow: '#8d6e00', blue: '#1565c0', magenta: '#8e24aa', cyan: '#00838f', white: '#bdbdbd',
    brightBlack: '#616161', brightRed: '#e53935', brightGreen: '#43a047', brightYellow: '#a67c00', brightBlue: '#1e88e5', brightMagenta: '#ab47bc', brightCyan: '#0097a7', brightWhite: '#757575',
  },
};

/** The theme the user's system prefers. */
export function preferredTheme(): ThemeName {
  return matchMedia('(prefers-color-scheme: light)').matches ? 'light' : 'dark';
}
