/**
 * The database was written by a newer version of the service (its schema has migrations this
 * code does not know). Running on would read and write tables this code does not understand.
 */
export class SchemaTooNew extends Error {
  constructor(found: number, known: number, where: string) {
    super(
      `${where} has schema version ${found}, newer than this version of the service knows (${known}). ` +
        'Run the version that wrote it (or newer), or restore a backup made before the upgrade; the data was not touched.',
    );
    this.name = 'SchemaTooNew';
  }
}
