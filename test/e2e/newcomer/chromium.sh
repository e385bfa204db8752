#!/bin/sh
# What `npm start` runs as Chromium in the newcomer suite (CHROMIUM_PATH): the real browser with the
# same flags scripts/start.mjs gives it, plus a debugging port for the test to drive it, the local
# model stand-in at localhost:11434 (a resolver rule, as the harness does) and a quiet network.
# No extension allow-listing and no auto-accept flag: the extension runs as a person's would. Its home
# is the test's (TW_NEWCOMER_HOME), so downloads land in a folder the test reads.
[ -n "$TW_NEWCOMER_HOME" ] && export HOME="$TW_NEWCOMER_HOME"
exec "${TW_NEWCOMER_CHROMIUM:-/usr/bin/chromium}" --remote-debugging-port="$TW_NEWCOMER_PORT" \
  --host-resolver-rules="$TW_NEWCOMER_HOST_RULES" --disable-gpu --disable-background-networking \
  --disable-component-update --disable-sync --disable-quic --window-size=1280,860 "$@"
