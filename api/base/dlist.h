/* dlist.h: the doubly linked lists the server keeps its waiting things on (suspended
 * streams, waiting requests, connection guards, event streams): a list is a pointer to its
 * first node, and each node holds its own two links, whose member names the caller gives.
 * Macros, so that one definition serves every node type; the caller holds the list's lock. */
#ifndef API_DLIST_H
#define API_DLIST_H

/* Puts `node` first on list `head` (a node on no list). */
#define DLIST_PUSH(head, node, prev, next)                                                         \
    do {                                                                                           \
        (node)->prev = NULL;                                                                       \
        (node)->next = (head);                                                                     \
        if (head) (head)->prev = (node);                                                           \
        (head) = (node);                                                                           \
    } while (0)

/* Takes `node` off list `head` and clears its links (a node on no list, its links NULL, is
 * left alone). */
#define DLIST_UNLINK(head, node, prev, next)                                                       \
    do {                                                                                           \
        if ((node)->prev)                                                                          \
            (node)->prev->next = (node)->next;                                                     \
        else if ((head) == (node))                                                                 \
            (head) = (node)->next;                                                                 \
        if ((node)->next) (node)->next->prev = (node)->prev;                                       \
        (node)->prev = (node)->next = NULL;                                                        \
    } while (0)

#endif
