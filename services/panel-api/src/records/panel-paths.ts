/** Every panel path is served bare and under /api (contract: "each path is also available with /api"). */
export const panelPaths = (...paths: string[]) => paths.flatMap((path) => [`panel/${path}`, `api/panel/${path}`]);
