// client.ts: what a TypeScript client generated from openapi.yaml by openapi-typescript
// (build/client/api.d.ts, `make spec-types`) may rely on; `tsc --noEmit` checks it, and
// each `@ts-expect-error` below must be an error for the check to pass.
import type { components, paths } from '../../build/client/api';

type Schemas = components['schemas'];

// `river` (and `edition`) may be left out of a classic game's options.
export const options: Schemas['ClassicOptionsRequest'] = {};
export const withRiver: Schemas['ClassicOptionsRequest'] = { river: true };

// Game.options narrows by ruleset.
export function river(g: Schemas['Game']): boolean | undefined {
    if (g.ruleset === 'classic') {
        const edition: 'standard' | 'original' = g.options.edition;
        return edition === 'original' ? g.options.river : g.options.river;
    }
    if (g.ruleset === 'discovery') {
        const draw: 'pile' | 'hand' = g.options.draw;
        return draw === 'hand';
    }
    return undefined;
}

// /events answers JSON alone: its 200 is an EventList, not `EventList | string`.
type Events200 = paths['/v1/games/{id}/events']['get']['responses'][200]['content'];
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const eventsJsonOnly: Exactly<keyof Events200, 'application/json'> = true;
export function lastSeq(list: Events200['application/json']): number {
    return list.has_more ? list.last_seq : list.events.length;
}
// The stream has a path of its own.
type Stream200 = paths['/v1/games/{id}/events/stream']['get']['responses'][200]['content'];
export const streamOnly: Exactly<keyof Stream200, 'text/event-stream'> = true;

// At most one follow-up per placement.
export const none: Schemas['PlacementRequest'] = { x: 0, y: 1, rotation: 90 };
export const one: Schemas['PlacementRequest'] = { x: 0, y: 1, rotation: 90, follower: 'N' };
// @ts-expect-error: two follow-ups
export const two: Schemas['PlacementRequest'] = { x: 0, y: 1, rotation: 90, follower: 'N', stable: 'S' };

// A placement's answer says what comes next.
export function next(r: Schemas['TurnResult']): number | null {
    return r.turn.phase === 'finished' ? null : r.turn.seat;
}
