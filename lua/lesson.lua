-- lua/lesson.lua -- the global table lesson: captions, pauses and polls
-- for teaching, and the claim / verdict lines of the demo scripts.
--
-- On a terminal (the program installed its lesson hooks, lua/llesson.c)
-- lesson.say also sets the live view's caption, pause and ask wait for a
-- key, and text is wrapped to the terminal's width.  Without one (a pipe,
-- --no-tui: core.lesson_width() is nil) everything is printed, wrapped to
-- 80 columns, and pause and ask return at once, so a lesson script runs
-- headless in tests as any script does.  claim and verdict print one line
-- headless, exactly as the scripts' print did before, so their recorded
-- output (tests/golden/) is unchanged.
local core = ...

-- What this file uses, captured at load time (see lua/help.lua).
local error, getmetatable, ipairs, pairs, print, tostring, type = error,
  getmetatable, ipairs, pairs, print, tostring, type
local run, race = run, race
local math, string, table, utf8 = math, string, table, utf8
local fmt, concat = string.format, table.concat
local width, caption, key = core.lesson_width, core.lesson_caption,
  core.lesson_key

local HEADLESS = 80       -- columns of the text printed without a terminal
local MAXCHOICES = 26     -- ask's choices are lettered a .. z

-- Columns a string takes: its UTF-8 characters (bytes when not UTF-8).
local function cols (s)
  return utf8.len(s) or #s
end

-- text (paragraphs split at "\n") filled into lines of at most w columns,
-- the first starting with first, the others with rest (both counted in
-- w); a word longer than a line stays whole on a line of its own.
local function wrap (text, w, first, rest)
  local out, line, lw = {}, first, cols(first)
  local fresh = true
  local function flush ()
    out[#out + 1] = line
    line, lw, fresh = rest, cols(rest), true
  end
  local para = 0
  for p in (text .. "\n"):gmatch("(.-)\n") do
    para = para + 1
    if para > 1 then flush() end
    for word in p:gmatch("%S+") do
      local ww = cols(word)
      if not fresh and lw + 1 + ww > w then flush() end
      if fresh then
        line, lw = line .. word, lw + ww
      else
        line, lw = line .. " " .. word, lw + 1 + ww
      end
      fresh = false
    end
  end
  out[#out + 1] = line
  return concat(out, "\n")
end

-- v must be a string (or nil when opt); the error is raised at the
-- user's line, level (default 3: the caller of the lesson function).
local function checktext (who, what, v, opt, level)
  if opt and v == nil then return nil end
  if type(v) ~= "string" then
    error(fmt("lesson.%s: %s must be a string (got %s)", who, what, type(v)),
          level or 3)
  end
  return v
end

-- Wait for a key among the accepted ones (ok(k) true); Ctrl-C raises
-- "interrupted!" at the script's line.
local function waitkey (prompt, ok)
  while true do
    local k = key(prompt)
    if k == nil then error("interrupted!", 3) end
    if ok(k) then return k end
  end
end

local lib = {}

function lib.say (text)
  checktext("say", "text", text)
  local w = width()
  if w == nil then
    print(wrap(text, HEADLESS, "", ""))
    return
  end
  caption(text)
  print(wrap(text, math.max(w, 20), "", ""))
end

function lib.clear ()
  caption(nil)
end

local function go_on (k)
  return k == " " or k == "\n" or k == "\r" or k == "right"
end

function lib.pause (text)
  checktext("pause", "text", text, true)
  local w = width()
  if text ~= nil then print(wrap(text, w or HEADLESS, "", "")) end
  if w == nil then return end
  waitkey("[press space to go on]", go_on)
end

function lib.ask (question, choices)
  checktext("ask", "question", question)
  if type(choices) ~= "table" then
    error(fmt("lesson.ask: choices must be a table of strings (got %s)",
              type(choices)), 2)
  end
  local n = #choices
  if n < 1 or n > MAXCHOICES then
    error(fmt("lesson.ask: choices must have 1 to %d entries (got %d)",
              MAXCHOICES, n), 2)
  end
  for i, c in ipairs(choices) do
    if type(c) ~= "string" then
      error(fmt("lesson.ask: choices[%d] must be a string (got %s)", i,
                type(c)), 2)
    end
  end
  local w = width() or HEADLESS
  print(wrap(question, w, "", ""))
  for i, c in ipairs(choices) do
    local l = string.char(96 + i) .. ") "
    print(wrap(c, w, "  " .. l, "     "))
  end
  if width() == nil then return nil end
  local last = string.char(96 + n)
  local k = waitkey(fmt("[press a letter, a-%s]", last), function (k)
    local b = #k == 1 and k:lower():byte() or 0
    return b >= 97 and b < 97 + n
  end)
  local i = k:lower():byte() - 96
  print(wrap(choices[i], w, "-> " .. string.char(96 + i) .. ") ", "     "))
  return i, choices[i]
end

-- claim / verdict: one line headless; wrapped to the terminal's width,
-- continued with an indent, on a terminal, where the claim is also the
-- live view's caption until the verdict.
local function labelled (who, label, text)
  checktext(who, "text", text, false, 4)
  local w = width()
  if w == nil then
    print(label .. text)
    return
  end
  -- the claim is the caption while the demo's runs are shown; the
  -- verdict ends the demo, and its caption
  caption(who == "claim" and label .. text or nil)
  print(wrap(text, math.max(w, 20), label, "  "))
end

function lib.claim (text) labelled("claim", "claim: ", text) end
function lib.verdict (text) labelled("verdict", "verdict: ", text) end

-- lesson.wrap(text, width) for scripts that print their own paragraphs.
function lib.wrap (text, w)
  checktext("wrap", "text", text)
  if w == nil then w = width() or HEADLESS end
  if math.type(w) ~= "integer" or w < 1 then
    error(fmt("lesson.wrap: width must be a positive integer (got %s)",
              tostring(w)), 2)
  end
  return wrap(text, w, "", "")
end

-- lesson.show(problem, methods, opts): on a terminal, the experiment
-- behind a demo's claim shown live (a run for one method, a race for a
-- list), returned; headless nothing is run and nil returned, so a demo
-- whose numbers come from many runs without a view shows one of them on
-- a terminal and prints exactly the same text headless.
function lib.show (p, methods, opts)
  if opts ~= nil and type(opts) ~= "table" then
    error(fmt("lesson.show: opts must be a table of run options (got %s)",
              type(opts)), 2)
  end
  if type(methods) ~= "table" and type(methods) ~= "userdata" then
    error(fmt("lesson.show: methods must be a method or a list of methods "
              .. "(got %s)", type(methods)), 2)
  end
  if width() == nil then return nil end
  local o = {}
  for k, v in pairs(opts or {}) do o[k] = v end
  o.view, o.progress = true, false
  if type(methods) == "table" and getmetatable(methods) == nil then
    return race(p, methods, o)
  end
  return run(p, methods, o)
end

-- lesson.slope(xs, ys): the least-squares slope of log y on log x, the
-- rate a demo reads off a log-log plot (sums of the logs, one pass).
function lib.slope (xs, ys)
  if type(xs) ~= "table" or type(ys) ~= "table" or #xs ~= #ys or #xs < 2 then
    error("lesson.slope: xs and ys must be two lists of numbers of one "
          .. "length, at least 2", 2)
  end
  local n, sx, sy, sxx, sxy = #xs, 0, 0, 0, 0
  for i = 1, n do
    local x, y = math.log(xs[i]), math.log(ys[i])
    sx, sy, sxx, sxy = sx + x, sy + y, sxx + x * x, sxy + x * y
  end
  return (n * sxy - sx * sy) / (n * sxx - sx * sx)
end

-- true when the lesson functions talk to a terminal (pause and ask wait).
function lib.live ()
  return width() ~= nil
end

local docs = {
  say = [[
lesson.say(text): a caption.  On a terminal it is printed wrapped to the
terminal's width and shown in the live view, above the status line, until
the next lesson.say or lesson.clear(); headless it is printed wrapped to
80 columns.]],
  pause = [[
lesson.pause([text]): print text (if given) and, on a terminal, wait for
space (or Return, or the right arrow); Ctrl-C stops the script.  Headless
it returns at once.]],
  ask = [[
lesson.ask(question, choices): print the question and the choices lettered
a), b), ...; on a terminal wait for a letter and return its index and the
choice; headless return nil.]],
  claim = [[
lesson.claim(text), lesson.verdict(text): print "claim: text" or
"verdict: text" -- one line headless, wrapped to the terminal's width on a
terminal, where the claim is also the live view's caption.]],
}
docs.verdict = docs.claim
docs.clear = docs.say
docs.wrap = [[
lesson.wrap(text[, width]): text filled into lines of at most width
columns (default: the terminal's, or 80).]]
docs.show = [[
lesson.show(problem, methods, opts): on a terminal, run the method (or
race the list of methods) with opts, shown live, and return the run or
race; headless run nothing and return nil.]]
docs.live = [[
lesson.live(): true on a terminal, where pause and ask wait for keys.]]
docs.slope = [[
lesson.slope(xs, ys): the least-squares slope of log y against log x (two
lists of one length, at least 2): the rate a demo reads off a log-log
plot.  A value <= 0 makes it nan.]]
core.fdocs = core.fdocs or {}
for name, f in pairs(lib) do
  if docs[name] then
    core.fdocs[f] = docs[name]
  end
end

lesson = lib   -- the global
