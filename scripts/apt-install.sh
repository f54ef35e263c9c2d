#!/usr/bin/env bash
# Installs Debian packages a check needs, when running as root with apt-get; otherwise says which
# to install and fails. Usage: apt-install.sh "what needs them" package...
set -euo pipefail
what=$1
shift
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
  echo "$what needs: $* (apt-get install -y $*)." >&2
  exit 1
fi
echo "Installing $* from Debian packages..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "$@" >/dev/null
