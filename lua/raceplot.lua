-- lua/raceplot.lua -- race:plot(opts), the same as r:plot over every run
-- of the race (lua/lplot.c).  Loaded after lua/race.lua, which makes the
-- race methods table.
local core = ...

core.race_mt.__index.plot = core.plot
