// npm run db:seed: adds the seed services that are missing from DATABASE_URL.
import { createDb } from "../../lib/db/create";
import { seedDatabase } from "../../prisma/seed";

const url = process.env.DATABASE_URL;
if (!url) {
  console.error("Set DATABASE_URL to the PostgreSQL database to seed.");
  process.exit(1);
}
const db = createDb(url, 2);
seedDatabase(db)
  .then((created) => console.log(created.length ? `Seeded ${created.join(", ")}` : "All seed services exist already."))
  .finally(() => db.$disconnect());
