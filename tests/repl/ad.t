#!/usr/bin/env bash
# tests/repl/ad.t -- the prompt's calculator for traced derivatives
# (issue 15), driven in tmux: grad, hessian and hvp typed at the prompt
# print the exact derivatives of a Lua function (closed forms of
# f = x1^2 x2 + e^x1 at (1, 2): g = (2 x1 x2 + e^x1, x1^2) = (4 + e, 1),
# H = [[2 x2 + e^x1, 2 x1], [2 x1, 0]] = [[4 + e, 2], [2, 0]]), and tape
# prints the recorded tape with its op count and guards.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'

tm_start
tm_wait "$P"; ok $? "ad: '> ' appears"

tm_line 'f = function (x) return x[1]^2 * x[2] + math.exp(x[1]) end'
tm_line 'g = grad(f, {1, 2}); print(string.format("g %.12f %.12f", g[1], g[2]))'
tm_wait '^g 6\.718281828459 1\.000000000000$'
ok $? "ad: grad(f, {1, 2}) = (4 + e, 1)"

# typed bare, the prompt prints the result: at (0, 3), g = (1, 0) and
# H = [[2 x2 + 1, 0], [0, 0]] = [[7, 0], [0, 0]]
tm_line 'grad(f, {0, 3})'
tm_wait '^\{1, 0\}$'; ok $? "ad: grad(f, {0, 3}) typed bare prints {1, 0}"
tm_line 'hessian(f, {0, 3})'
tm_wait '^\{\{7, 0\}, \{0, 0\}\}$'
ok $? "ad: hessian(f, {0, 3}) typed bare prints {{7, 0}, {0, 0}}"

tm_line 'H = hessian(f, {1, 2}); print(string.format("H %.12f %g %g %g", H[1][1], H[1][2], H[2][1], H[2][2]))'
tm_wait '^H 6\.718281828459 2 2 0$'
ok $? "ad: hessian(f, {1, 2}) = [[4 + e, 2], [2, 0]]"

tm_line 'v = hvp(f, {1, 2}, {1, -1}); print(string.format("hv %.12f %g", v[1], v[2]))'
tm_wait '^hv 4\.718281828459 2$'
ok $? "ad: hvp(f, {1, 2}, {1, -1}) = H v = (2 + e, 2)"

tm_line 'tape(function (x) return x[1] * x[2] + math.abs(x[2]) end, {1, 2})'
tm_wait '^tape of [0-9]+ ops, 1 guards?'
ok $? "ad: tape(f, x) prints the tape's size and its guard"
tm_wait 'mul +%0 +%1'; ok $? "ad: tape(f, x) lists the instructions (mul %0 %1)"
tm_wait 'guard 1: .* is true'; ok $? "ad: tape(f, x) shows the guard's outcome"

tm_line 'grad(function (x) return tostring(x[1]) and x[1]^2 end, {3})'
tm_wait 'finite differences \(.*tostring'
ok $? "ad: grad of an untraceable f says finite differences and why"

tm_line 'print("still" .. "here")'
tm_wait '^stillhere$'; ok $? "ad: the prompt works after the calculator"

done_testing
