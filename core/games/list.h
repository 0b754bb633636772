/*
** core/games/list.h -- the game-dynamics registry: one line per dynamic.
** OL_DYNAMIC(name) declares ol_game_<name> from core/games/<name>.c
** (play.c is the shared averaging and regret accounting, not a dynamic).
*/
OL_DYNAMIC(rmplus)
OL_DYNAMIC(rm)
OL_DYNAMIC(prmplus)
OL_DYNAMIC(mwu)
OL_DYNAMIC(omwu)
OL_DYNAMIC(gda)
OL_DYNAMIC(eg)
OL_DYNAMIC(ogda)
OL_DYNAMIC(aog)
OL_DYNAMIC(clipseg)
OL_DYNAMIC(clipsgda)
OL_DYNAMIC(fp)
OL_DYNAMIC(br)
OL_DYNAMIC(cfr)
OL_DYNAMIC(cfrplus)
OL_DYNAMIC(ixomd)
OL_DYNAMIC(exp3)
OL_DYNAMIC(logbarrier)
OL_DYNAMIC(tsmd)
OL_DYNAMIC(pg)
