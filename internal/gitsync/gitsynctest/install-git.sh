#!/bin/sh
# Prints the path of git for the gitsync tests, which run a Git server
# (git http-backend) and read what was pushed with the git command,
# installing Debian's git package when git is missing and this runs as root.
#
# Exit status: 0 with the path on stdout; 3 when git is missing and cannot
# be installed here, with the reason on stderr (the tests then skip and
# show it); anything else is an unexpected failure. apt-get's output goes
# to stderr.
set -eu

if path=$(command -v git 2>/dev/null) && [ -x "$path" ]; then
	echo "$path"
	exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
	echo "git is not installed and this system has no apt-get: install git" >&2
	exit 3
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "git is not installed, and installing it needs root: run 'sudo apt-get install -y git'" >&2
	exit 3
fi

# Test processes may get here together: the second waits for dpkg's lock
# instead of failing.
export DEBIAN_FRONTEND=noninteractive
run_apt() { apt-get -o DPkg::Lock::Timeout=600 "$@" >&2; }
if ! run_apt install -y git; then
	# The package lists may be missing or stale.
	if ! { run_apt update && run_apt install -y git; }; then
		echo "apt-get could not install git (its output is above)" >&2
		exit 3
	fi
fi
if [ ! -x /usr/bin/git ]; then
	echo "apt-get installed git, but /usr/bin/git is missing" >&2
	exit 1
fi
echo /usr/bin/git
