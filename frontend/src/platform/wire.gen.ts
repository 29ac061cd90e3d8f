// Not generated: the wire types' old place, kept only while the console
// (src/console/, moved to src/features/console/ on another branch) still
// imports them from here. Delete this file when that move rewrites its imports
// to src/gen/wire.gen.ts.
export * from '../gen/wire.gen';
