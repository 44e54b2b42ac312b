import { AfterInsert, PrimaryGeneratedColumn } from 'typeorm';

/** An auto-increment BIGINT id that reaches the API as a JSON integer. */
export abstract class NumericIdEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: number;

  /** TypeORM hands a generated BIGINT id back as a string (its issue #720); reads are numbers already. */
  @AfterInsert()
  protected idAsNumber(): void {
    this.id = Number(this.id);
  }
}
