/**
 * Adapters whose client the production image does not carry (KurrentDB, MongoDB): their packages are
 * optional peer dependencies, installed by whoever configures them. Loading one that is missing names
 * the package and the command, instead of a bare ERR_MODULE_NOT_FOUND.
 */
export class OptionalModuleMissingError extends Error {}

export async function loadOptionalAdapter<T>(
  packageName: string,
  configuredBy: string,
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = error instanceof Error ? error.message : String(error);
    // Node's ESM loader says ERR_MODULE_NOT_FOUND ("Cannot find package 'x'"), a CommonJS resolver MODULE_NOT_FOUND.
    if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && message.includes(`'${packageName}'`)) {
      throw new OptionalModuleMissingError(
        `${configuredBy} is set, but ${packageName} is not installed (an optional dependency the image leaves out): ` +
          `npm install ${packageName}`,
      );
    }
    throw error;
  }
}
