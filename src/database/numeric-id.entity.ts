import { PrimaryGeneratedColumn } from 'typeorm';

/** An auto-increment BIGINT id; the repositories hand it to the API as a JSON integer. */
export abstract class NumericIdEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: number;
}
