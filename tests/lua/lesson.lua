-- tests/lua/lesson.lua -- the lesson table headless (issue 26): wrapping
-- (widths, long words, paragraphs, UTF-8 counted as characters), what
-- say, pause, ask, claim and verdict print without a terminal, that pause
-- and ask return at once, show runs nothing, and the argument errors name
-- the argument and the type.  The terminal side is tests/repl/lesson.t.
local t = dofile("tests/lib/tap.lua")

-- What a chunk prints, run by the binary with stdout a pipe (the lesson
-- functions capture print when the library loads, so they are watched
-- from outside); the chunk's own results are printed after a "=>" line.
local function capture (chunk)
  local tmp = os.tmpname()
  local f = assert(io.open(tmp, "w"))
  f:write(chunk)
  f:close()
  local p = assert(io.popen("./optlab " .. tmp .. " < /dev/null 2>&1"))
  local out = p:read("a")
  p:close()
  os.remove(tmp)
  return out
end

local function maxlen (s)
  local m = 0
  for line in (s .. "\n"):gmatch("(.-)\n") do
    m = math.max(m, utf8.len(line) or #line)
  end
  return m
end

-- (1) wrap
local words = string.rep("alpha beta gamma ", 20)
local w = lesson.wrap(words, 30)
t.ok(maxlen(w) <= 30 and maxlen(w) >= 25,
     "wrap: lines fill up to the width, no more (longest " .. maxlen(w) .. ")")
t.is(w:gsub("\n", " "), words:gsub(" $", ""),
     "wrap: only spaces become line breaks, words in order")
t.is(lesson.wrap("a " .. string.rep("x", 50) .. " b", 20),
     "a\n" .. string.rep("x", 50) .. "\nb",
     "wrap: a word longer than a line stays whole on its own line")
t.is(lesson.wrap("one\n\ntwo", 80), "one\n\ntwo",
     "wrap: newlines end paragraphs, a blank line is kept")
t.is(lesson.wrap(string.rep("\u{3b1}\u{3b2} ", 10), 9),
     string.rep("\u{3b1}\u{3b2} \u{3b1}\u{3b2} \u{3b1}\u{3b2}\n", 3)
       .. "\u{3b1}\u{3b2}",
     "wrap: UTF-8 characters count as one column each")
t.is(lesson.wrap(words), lesson.wrap(words, 80),
     "wrap: headless the default width is 80")

-- (2) headless printing, no waiting
local words_q = string.format("%q", words)
t.is(capture("lesson.say(" .. words_q .. ")"), lesson.wrap(words, 80) .. "\n",
     "say: headless, wrapped to 80")
t.is(capture("print('=>', lesson.pause())"), "=>\n",
     "pause: headless without text prints nothing, returns nothing")
t.is(capture("lesson.pause('think'); print('=>')"), "think\n=>\n",
     "pause: headless prints its text and returns at once")
t.is(capture("print('=>', lesson.ask('Which?', {'gd', 'momentum'}))"),
     "Which?\n  a) gd\n  b) momentum\n=>\tnil\n",
     "ask: headless prints the question and lettered choices, returns nil")
local long = string.rep("claimed ", 30)
t.is(capture("lesson.claim(" .. string.format("%q", long) .. ")"),
     "claim: " .. long .. "\n",
     "claim: headless one line, as print(\"claim: \" .. text)")
t.is(capture("lesson.verdict('holds (x)')"), "verdict: holds (x)\n",
     "verdict: headless one line")
t.is(lesson.live(), false, "live: false headless")
t.is(capture("print('=>', lesson.show(problem.quadratic{}, optim.gd{}, "
             .. "{iters = 10}))"), "=>\tnil\n",
     "show: headless runs nothing, prints nothing, returns nil")

-- (3) argument errors
t.errors("lesson%.say: text must be a string %(got number%)",
         lesson.say, 3)
t.errors("lesson%.pause: text must be a string %(got table%)",
         lesson.pause, {})
t.errors("lesson%.ask: question must be a string %(got nil%)", lesson.ask)
t.errors("lesson%.ask: choices must be a table of strings %(got string%)",
         lesson.ask, "q", "a")
t.errors("lesson%.ask: choices must have 1 to 26 entries %(got 0%)",
         lesson.ask, "q", {})
t.errors("lesson%.ask: choices%[2%] must be a string %(got boolean%)",
         lesson.ask, "q", {"a", true})
t.errors("lesson%.claim: text must be a string %(got nil%)", lesson.claim)
t.errors("lesson%.wrap: width must be a positive integer %(got 0%)",
         lesson.wrap, "x", 0)
t.errors("lesson%.show: methods must be a method or a list of methods "
         .. "%(got number%)", lesson.show, problem.quadratic{}, 1)
t.errors("lesson%.show: opts must be a table of run options %(got string%)",
         lesson.show, problem.quadratic{}, optim.gd{}, "x")

-- lesson.slope: the least-squares slope of log y on log x (y = 3 x^-1.5
-- exactly: -1.5 to rounding; noisy points: the closed-form fit by hand)
t.ok(math.abs(lesson.slope({1, 10, 100, 1000}, {3, 3 * 10 ^ -1.5,
                                                3 * 100 ^ -1.5,
                                                3 * 1000 ^ -1.5}) + 1.5)
     < 1e-14, "slope: y = 3 x^-1.5 gives -1.5")
do
  local xs, ys = {2, 4, 8}, {1, 3, 2}
  local lx = {math.log(2), math.log(4), math.log(8)}
  local ly = {0, math.log(3), math.log(2)}
  local mx, my = (lx[1] + lx[2] + lx[3]) / 3, (ly[1] + ly[2] + ly[3]) / 3
  local sxy, sxx = 0, 0
  for i = 1, 3 do
    sxy = sxy + (lx[i] - mx) * (ly[i] - my)
    sxx = sxx + (lx[i] - mx) ^ 2
  end
  t.ok(math.abs(lesson.slope(xs, ys) - sxy / sxx) < 1e-14,
       "slope: three noisy points match the centred least-squares formula")
end
t.errors("lesson.slope: xs and ys must be two lists of numbers of one "
         .. "length, at least 2", lesson.slope, {1, 2}, {1})
t.ok(lesson.slope({1, 2}, {1, 0}) ~= lesson.slope({1, 2}, {1, 0}),
     "slope: a value <= 0 gives nan")
t.done()
