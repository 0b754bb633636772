-- scripts/lesson_momentum.lua -- a lesson: why the heavy ball beats
-- gradient descent in a long narrow valley.
--
-- Run it as a lesson, one section at a time (space: next, backspace:
-- back, q: quit):
--
--     optlab --lesson scripts/lesson_momentum.lua
--
-- or straight through like any script (headless it prints the captions
-- and does not wait).  The sections begin at the "-- %%" lines.
--
-- Claim (Polyak 1964): on a quadratic of condition number kappa, gradient
-- descent at its best step 2/(L+mu) contracts ||x - x*|| by (kappa-1)/
-- (kappa+1) a step, the heavy ball tuned to (L, mu) by (sqrt kappa - 1)/
-- (sqrt kappa + 1): about sqrt(kappa) times fewer steps for the same
-- accuracy.
local kappa = 50
local L, mu = 1, 1 / kappa        -- problem.quadratic{n = 2}: eigenvalues
local sq = math.sqrt(kappa)       -- 1/cond and 1
local p = problem.quadratic{n = 2, cond = kappa, seed = 3}
local gd = optim.gd{lr = 2 / (L + mu)}
local hb = optim.momentum{lr = 4 / (math.sqrt(L) + math.sqrt(mu))^2,
                          mu = ((sq - 1) / (sq + 1))^2}
local eps, seed = 1e-6, 1
-- (speed: 60 steps a second on a terminal, slow enough to narrate: gd's
-- 346 steps take 6 s; the keys < and > halve and double it)
local opts = {iters = 2000, seed = seed, metrics = {"dist"},
              watch = {"dist"}, stop_below = {dist = eps * math.sqrt(2)},
              speed = 60}

-- %% the valley
lesson.claim(string.format("on a 2-D quadratic of condition number %g the "
                           .. "tuned heavy ball reaches ||x - x*|| <= %g "
                           .. "about sqrt(kappa) = %.1f times faster than "
                           .. "gradient descent at its best step", kappa,
                           eps, sq))
lesson.say(string.format("f(x) = x'Ax/2 with eigenvalues 1 and 1/%g: a "
                         .. "valley %g times steeper across than along. "
                         .. "Both methods start at (1, 1); x* = 0.", kappa,
                         kappa))

-- %% gradient descent
lesson.say("Gradient descent at its best constant step 2/(L + mu): the "
           .. "steep direction is settled at once, the flat one crawls.")
lesson.pause()
local r1 = run(p, gd, opts)
print(string.format("gd: %d steps to ||x - x*|| <= %g", r1.iter, eps))

-- %% a poll
local guess = lesson.ask("The heavy ball adds mu (x_t - x_{t-1}) to each "
                         .. "step. How many steps will it need?",
                         {"about as many as gd", "about 7 times fewer",
                          "about 50 times fewer"})
if guess ~= nil then
  print(guess == 2 and "right: sqrt(50) is about 7"
        or "let us see: the theory says sqrt(kappa), about 7")
end

-- %% the heavy ball
lesson.say("The race: gradient descent and the heavy ball from the same "
           .. "start; the panel shows ||x - x*|| on a log scale.")
lesson.pause()
local rc = race(p, {gd, hb}, opts)
local n_gd, n_hb = rc[1].iter, rc[2].iter
print(string.format("  gd        %4d steps   (theory ~ %.0f)", n_gd,
                    math.log(1 / eps) / -math.log((kappa - 1) / (kappa + 1))))
print(string.format("  momentum  %4d steps   (theory ~ %.0f)", n_hb,
                    math.log(1 / eps) / -math.log((sq - 1) / (sq + 1))))

-- %% the verdict
local ratio = n_gd / n_hb
local ok = rc[1].reason == "tolerance" and rc[2].reason == "tolerance"
  and ratio > sq / 2 and ratio < 2 * sq
lesson.say(string.format("gd needed %.1f times the heavy ball's steps; "
                         .. "sqrt(kappa) = %.1f.", ratio, sq))
lesson.verdict(string.format("%s (gd %d steps, heavy ball %d, ratio %.2f "
                             .. "within 2x of sqrt(kappa) %.2f; seed %d)",
                             ok and "holds" or "does not hold", n_gd, n_hb,
                             ratio, sq, seed))
