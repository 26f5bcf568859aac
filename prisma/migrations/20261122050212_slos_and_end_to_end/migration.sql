-- AlterTable
ALTER TABLE "Budget" ADD COLUMN     "endToEndSource" JSONB;

-- CreateTable
CREATE TABLE "Slo" (
    "id" UUID NOT NULL,
    "serviceId" UUID NOT NULL,
    "name" VARCHAR(120) NOT NULL,
    "indicator" VARCHAR(60) NOT NULL,
    "source" JSONB NOT NULL,
    "thresholdMs" DOUBLE PRECISION NOT NULL,
    "objective" DOUBLE PRECISION NOT NULL,
    "windowDays" INTEGER NOT NULL,
    "thresholdMode" VARCHAR(20) NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "updatedBy" VARCHAR(120) NOT NULL,

    CONSTRAINT "Slo_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Slo_serviceId_name_key" ON "Slo"("serviceId", "name");

-- AddForeignKey
ALTER TABLE "Slo" ADD CONSTRAINT "Slo_serviceId_fkey" FOREIGN KEY ("serviceId") REFERENCES "Service"("id") ON DELETE CASCADE ON UPDATE CASCADE;
