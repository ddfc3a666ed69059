#!/bin/sh
# Prints the path of a Chromium binary for the browser checks, installing
# Debian's chromium package when none is found and this runs as root.
#
# Exit status: 0 with the path on stdout; 3 when Chromium is missing and
# cannot be installed here, with the reason on stderr (the tests then skip
# and show it); anything else is an unexpected failure. apt-get's output
# goes to stderr.
set -eu

for candidate in "${CHROMIUM:-}" /usr/bin/chromium /usr/bin/chromium-browser; do
	if [ -n "$candidate" ] && [ -x "$candidate" ]; then
		echo "$candidate"
		exit 0
	fi
done

if ! command -v apt-get >/dev/null 2>&1; then
	echo "Chromium is not installed and this system has no apt-get: install Chromium and set CHROMIUM to its binary" >&2
	exit 3
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "Chromium is not installed, and installing it needs root: run 'sudo apt-get install -y chromium', or set CHROMIUM to a Chromium binary" >&2
	exit 3
fi

# Two test processes (SQLite and PostgreSQL) may get here together: the
# second waits for dpkg's lock instead of failing.
export DEBIAN_FRONTEND=noninteractive
run_apt() { apt-get -o DPkg::Lock::Timeout=600 "$@" >&2; }
if ! run_apt install -y chromium; then
	# The package lists may be missing or stale.
	if ! { run_apt update && run_apt install -y chromium; }; then
		echo "apt-get could not install chromium (its output is above)" >&2
		exit 3
	fi
fi
if [ ! -x /usr/bin/chromium ]; then
	echo "apt-get installed chromium, but /usr/bin/chromium is missing" >&2
	exit 1
fi
echo /usr/bin/chromium
