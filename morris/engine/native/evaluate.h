/*
 * The search's static evaluation in plain C (evaluate.c), apart from the search (search.c).
 */
#ifndef MORRIS_NATIVE_EVALUATE_H
#define MORRIS_NATIVE_EVALUATE_H

#include "search.h"

/* The score of the position for the side to move (`us`, with `uh` pieces in hand) in
 * centi-pieces, by the search's weights: evaluate.py's evaluation of the same position. */
int eval_position(const Search *s, bb us, bb them, int uh, int th);

#endif
