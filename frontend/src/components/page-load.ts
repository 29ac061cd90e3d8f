// The page loader's old place, kept only while the console's frame
// (src/console/public/frame.tsx, moved to src/features/console/ on another
// branch) still imports it from here. Delete this file when that move
// rewrites its import to src/shared/page-load.ts.
export * from '../shared/page-load';
