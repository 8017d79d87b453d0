#!/bin/sh
# Add Gonzaga to the desktop's application menu, for this user: writes
# ~/.local/share/applications/gonzaga.desktop pointing at the Gonzaga program beside this script,
# and copies the icon to ~/.local/share/icons/hicolor/256x256/apps/gonzaga.png.
# Run it again after moving the folder; delete those two files to remove the entry.
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
apps="${XDG_DATA_HOME:-$HOME/.local/share}/applications"
icons="${XDG_DATA_HOME:-$HOME/.local/share}/icons/hicolor/256x256/apps"
mkdir -p "$apps" "$icons"
cp "$here/gonzaga.png" "$icons/gonzaga.png"
sed "s|^Exec=Gonzaga$|Exec=\"$here/Gonzaga/Gonzaga\"|" "$here/gonzaga.desktop" > "$apps/gonzaga.desktop"
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database "$apps" || true
echo "Gonzaga is now in the application menu ($apps/gonzaga.desktop)"
