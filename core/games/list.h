/*
** core/games/list.h -- the game-dynamics registry: one line per dynamic.
** OL_DYNAMIC(name) declares ol_game_<name> from core/games/<name>.c.
*/
OL_DYNAMIC(rmplus)
