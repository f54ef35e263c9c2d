#!/usr/bin/env bash
# The desktop agent's tests (packages/agent/src/agent.test.ts, backends/x11.test.ts) open real windows
# on a virtual X display and read them with the X tools the agent uses; install them from Debian when
# one is missing: Xvfb (xvfb), xdotool, xprop and xmessage (x11-utils), xprintidle, xlogo and xclock
# (x11-apps); dbus-daemon for the tray's test (packages/agent/src/tray.test.ts) on a session bus of its own.
set -euo pipefail
missing=()
for tool in Xvfb:xvfb xdotool:xdotool xprop:x11-utils xmessage:x11-utils xprintidle:xprintidle xlogo:x11-apps xclock:x11-apps dbus-daemon:dbus-daemon; do
  command -v "${tool%%:*}" >/dev/null || missing+=("${tool##*:}")
done
if [ "${#missing[@]}" -eq 0 ]; then exit 0; fi
mapfile -t packages < <(printf '%s\n' "${missing[@]}" | sort -u)
bash "$(dirname "$0")/apt-install.sh" "The desktop agent's X11 tests" "${packages[@]}"
