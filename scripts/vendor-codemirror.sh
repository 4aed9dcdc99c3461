#!/bin/sh
# Vendors the policy editor (CodeMirror 5: the editor, its YAML mode and the hint add-on, MIT
# licence) from the npm registry into gateway/admin/static/vendor/, so the console loads nothing
# from elsewhere at run time. Reproducible: the version and the tarball's sha512 (the registry's
# `dist.integrity`) are pinned here; a tarball that does not match is refused. The files are
# committed (`make vendor-editor` runs this again: to change the version, update VERSION and
# INTEGRITY); tests/unit/test_vendored_editor.py checks them against VENDORED.txt.
set -eu
VERSION=5.65.21
INTEGRITY=sha512-6teYk0bA0nR3QP0ihGMoxuKzpl5W80FpnHpBJpgy66NK3cZv5b/d/HY8PnRvfSsCG1MTfr92u2WUl+wT0E40mQ==
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT="$ROOT/gateway/admin/static/vendor"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
(cd "$WORK" && npm pack --silent "codemirror@$VERSION" >/dev/null)
TGZ="$WORK/codemirror-$VERSION.tgz"
GOT="sha512-$(openssl dgst -sha512 -binary "$TGZ" | base64 -w0)"
if [ "$GOT" != "$INTEGRITY" ]; then
    echo "vendor-codemirror: codemirror-$VERSION.tgz is $GOT, expected $INTEGRITY" >&2
    exit 2
fi
tar xzf "$TGZ" -C "$WORK"
P="$WORK/package"
mkdir -p "$OUT"
cp "$P/lib/codemirror.js" "$OUT/codemirror.js"
cp "$P/lib/codemirror.css" "$OUT/codemirror.css"
cp "$P/mode/yaml/yaml.js" "$OUT/codemirror-yaml.js"
cp "$P/addon/hint/show-hint.js" "$OUT/codemirror-show-hint.js"
cp "$P/addon/hint/show-hint.css" "$OUT/codemirror-show-hint.css"
cp "$P/LICENSE" "$OUT/CODEMIRROR-LICENSE.txt"
# what was vendored, from where, and each file's digest (checked by the tests)
{
    echo "codemirror $VERSION $INTEGRITY"
    (cd "$OUT" && sha256sum codemirror.js codemirror.css codemirror-yaml.js \
        codemirror-show-hint.js codemirror-show-hint.css CODEMIRROR-LICENSE.txt)
} >"$OUT/VENDORED.txt"
echo "vendored codemirror $VERSION into $OUT"
