/** Every portal path is served bare and under /api, like the panel's. */
export const portalPaths = (...paths: string[]) => paths.flatMap((path) => [`portal/${path}`, `api/portal/${path}`]);
