/* nodiscard.h: NODISCARD marks a function whose result must be checked (engine and service). */
#ifndef CC_NODISCARD_H
#define CC_NODISCARD_H

/*
 * Written after a declaration's parameter list: `int f(void) NODISCARD;`. A caller that
 * drops the result gets a warning (an error under -Werror); cast to void only where
 * ignoring it is right and say why. Lives in core/ so that the engine stays free of api/
 * headers while the service uses the same macro.
 */
#if defined(__GNUC__) || defined(__clang__)
#define NODISCARD __attribute__((warn_unused_result))
#else
#define NODISCARD
#endif

#endif
