#!/bin/sh
# What `npm start -- --browser firefox` (web-ext run) starts as Firefox in the newcomer suite
# (FIREFOX_PATH): the real browser plus WebDriver BiDi for the test, and a few preferences appended
# to the profile web-ext made (the add-on's pinned address, the local model stand-in's route).
prev=""
for a in "$@"; do
  if [ "$prev" = "-profile" ] || [ "$prev" = "--profile" ]; then printf '%s\n' "$TW_NEWCOMER_PREFS" >> "$a/user.js"; fi
  prev="$a"
done
exec "${TW_NEWCOMER_FIREFOX:-/usr/bin/firefox-esr}" --remote-debugging-port="$TW_NEWCOMER_PORT" --remote-allow-system-access "$@"
