/*
 * The search's static evaluation: a line-for-line port of make_evaluator (evaluate.py), called
 * at the leaves of search.c's negamax. It must give the very same score as the Python evaluation
 * for every position (a hypothesis test in tests/engine/test_native.py compares them on random
 * bitboards, and a test changes some weights and compares again). Change one side, change the
 * other.
 *
 * The weights are the search's own (Search.w, the variant's or a caller's), the value of a piece
 * Search.piece (evaluate.py's PIECE, given at import through search_configure()).
 */
#include "evaluate.h"

/* The free steps of side's pieces, how many cannot step and how many have exactly one. */
static inline void mobility(const Search *s, bb side, bb empty, int *steps, int *blocked,
                            int *single)
{
    int st = 0, bl = 0, si = 0;
    while (side) {
        int p = lowbit(side);
        side &= side - 1;
        int n = popcount(s->neighbours[p] & empty);
        st += n;
        if (n == 0)
            bl++;
        else if (n == 1)
            si++;
    }
    *steps = st;
    *blocked = bl;
    *single = si;
}

static int running(const Search *s, bb closed, bb side, bb empty)
{
    int count = 0;
    while (closed) {
        int p = lowbit(closed);
        bb low = 1u << p;
        closed &= closed - 1;
        bb free_ = s->neighbours[p] & empty;
        if (free_) {
            count += 1;
            bb rest = side ^ low;
            while (free_) {
                bb fl = free_ & (~free_ + 1);
                free_ ^= fl;
                for (int i = 0; i < s->n_masks; i++) {
                    bb m = s->mill_masks[i];
                    if ((m & fl) && (rest & m) == (m ^ fl))
                        count += 3;
                }
            }
        }
    }
    return count;
}

int eval_position(const Search *s, bb us, bb them, int uh, int th)
{
    int pu = popcount(us);
    int pt = popcount(them);
    int score = (pu + uh - pt - th) * s->piece;
    bb empty = s->in_play ^ (us | them);
    if (uh || th) {
        int twos_us = 0, twos_them = 0;
        bb close_us = 0, close_them = 0;
        for (int i = 0; i < s->n_masks; i++) {
            bb m = s->mill_masks[i];
            bb a = us & m;
            bb b = them & m;
            if (!b) {
                if (a && a != m && popcount(a) == 2) {
                    twos_us++;
                    close_us |= m ^ a;
                }
            } else if (!a && b != m && popcount(b) == 2) {
                twos_them++;
                close_them |= m ^ b;
            }
        }
        score += (s->w.open_two + s->w.open_two_per_hand * (uh + th)) * (twos_us - twos_them);
        if (close_us && uh)
            score += (close_us & (close_us - 1)) == 0 ? s->w.close_one : s->w.close_more;
        if (close_them && th && (close_them & (close_them - 1)))
            score -= s->w.closings_against;
        int mob_us, blocked_us, single_us, mob_them, blocked_them, single_them;
        mobility(s, us, empty, &mob_us, &blocked_us, &single_us);
        mobility(s, them, empty, &mob_them, &blocked_them, &single_them);
        score += s->w.placing_tempo + s->w.placing_mobility * (mob_us - mob_them) -
                 s->w.placing_blocked * (blocked_us - blocked_them) -
                 s->w.placing_one_exit * (single_us - single_them);
        for (int k = 0; k < s->n_layers; k++) {
            int held = popcount(us & s->layers[k]) - popcount(them & s->layers[k]);
            score += (k ? s->w.point_cross : s->w.point_link) * held;
        }
        return score;
    }
    int fly_us = s->flying && pu == 3;
    int fly_them = s->flying && pt == 3;
    int mob_us = 0, blocked_us = 0, mob_them = 0, blocked_them = 0, single;
    if (!fly_us)
        mobility(s, us, empty, &mob_us, &blocked_us, &single);
    if (!fly_them)
        mobility(s, them, empty, &mob_them, &blocked_them, &single);
    if (!fly_them && !mob_them)
        score += s->w.opponent_blocked;
    score += s->w.moving_mobility * (mob_us - mob_them) -
             s->w.moving_blocked * (blocked_us - blocked_them);
    bb closed_us = 0, closed_them = 0;
    int threats_us = 0, threats_them = 0;
    for (int i = 0; i < s->n_masks; i++) {
        bb m = s->mill_masks[i];
        bb a = us & m;
        bb b = them & m;
        if (a == m) {
            closed_us |= m;
        } else if (b == m) {
            closed_them |= m;
        } else if (!b) {
            if (a && popcount(a) == 2) {
                bb q = m ^ a;
                bb movers = (fly_us ? us : (s->neighbours[lowbit(q)] & us)) & ~m;
                if (movers)
                    threats_us++;
            }
        } else if (!a && popcount(b) == 2) {
            bb q = m ^ b;
            bb movers = (fly_them ? them : (s->neighbours[lowbit(q)] & them)) & ~m;
            if (movers)
                threats_them++;
        }
    }
    int running_us = (closed_us && !fly_us) ? running(s, closed_us, us, empty) : 0;
    int running_them = (closed_them && !fly_them) ? running(s, closed_them, them, empty) : 0;
    score += s->w.running_mill * (running_us - running_them);
    if (threats_us)
        score += s->w.threat + s->w.per_threat * threats_us;
    if (threats_them)
        score -= s->w.per_threat_against * threats_them + (threats_them > 1 ? s->w.threats_against : 0);
    return score;
}
