#!/bin/sh
# Installs the Debian packages given as arguments that are not installed yet.
# Uses sudo when not root. Quiet when nothing is missing.
missing=""
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "make deps: installing:$missing" >&2
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq || exit 1
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null || exit 1
