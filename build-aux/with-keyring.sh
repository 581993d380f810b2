#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# with-keyring.sh CMD [ARG…]
#
# Runs CMD with a fresh, unlocked gnome-keyring (secrets component only) on a
# private D-Bus session bus, in a temporary HOME that is removed afterwards.
# The login keyring is created and unlocked with the password "pw" from
# stdin, so no prompt ever opens. Exports DYN_IN_KEYRING=1 and
# DYN_KEYRING_HOME (the temporary HOME). Exits with CMD's status.
#
# The bus listens on a socket file, not an abstract socket, so that a test
# that moves itself into a private network namespace can still reach it.

set -eu

if [ $# -eq 0 ]; then
  echo "usage: $0 CMD [ARG…]" >&2
  exit 2
fi

for tool in dbus-run-session gnome-keyring-daemon; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "with-keyring.sh: $tool is not installed" >&2
    exit 77
  fi
done

T=$(mktemp -d "${TMPDIR:-/tmp}/dyn-keyring.XXXXXX")
cleanup () { rm -rf "$T"; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mkdir -m700 "$T/run" "$T/data" "$T/config"
cat >"$T/run/session.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <keep_umask/>
  <listen>unix:dir=$T/run</listen>
  <auth>EXTERNAL</auth>
  <standard_session_servicedirs/>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
EOF

export HOME="$T" XDG_DATA_HOME="$T/data" XDG_CONFIG_HOME="$T/config" XDG_RUNTIME_DIR="$T/run"
export DYN_IN_KEYRING=1 DYN_KEYRING_HOME="$T"
unset DBUS_SESSION_BUS_ADDRESS GNOME_KEYRING_CONTROL

status=0
dbus-run-session --config-file="$T/run/session.conf" -- \
  sh -c 'printf %s pw | gnome-keyring-daemon --unlock --components=secrets --daemonize >/dev/null && exec "$@"' \
  sh "$@" || status=$?
exit "$status"
